import Foundation
import Testing

/// `copy(objects, store)` into a store without the objects' entity says it is the target
/// that lacks it (it said "unknown entity 'birds'" of an entity the objects' own store
/// plainly had), and how to give one.
@Suite struct CopyTargetEntityTests {
    @Test func aTargetWithoutTheEntityIsNamed() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "a.db", "-e",
            #"""
            entity "birds" { name = "string" }; birds:new{ name = "owl" }; save()
            local owls = open("owls.db")
            local ok, err = pcall(copy, fetch("birds"), owls)
            print(ok, err)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains("false") && result.stdout.contains("owls.db has no entity 'birds' to copy into: define it there first"),
            "\(result)")
    }
}
