import Foundation
import Testing

/// Issue 32: an error inside an observer is noticed and the work goes on (the save is
/// written, the other observers run, the script runs to its end), and then a batch run
/// exits 1, where it used to exit 0.
@Suite struct ObserverExitStatusTests {
    private static let script = #"""
        entity "Item" { n = "int64" }
        local heard = 0
        observe("Item", function(ch) error("boom in the observer") end)
        observe("Item", function(ch) heard = heard + #ch.inserted end)
        Item:new{ n = 1 }; Item:new{ n = 2 }
        save()
        print("after save", heard)
        Item:new{ n = 3 }
        save()
        print("end", heard)
        """#

    /// A script: both saves are written, the second observer hears both, the script
    /// prints its last line, the notice is on stderr, and the status is 1.
    @Test func aScriptWhoseObserverFailedExitsOneAfterFinishing() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("t.lua", Self.script)
        let result = try await sandbox.quarry(["store.db", "t.lua"])
        #expect(result.status == 1, "\(result)")
        #expect(result.lines == ["after save\t2", "end\t3"], "\(result)")
        #expect(
            result.errorLines.count == 2 && result.errorLines.allSatisfy { $0.hasPrefix("observer: ") && $0.contains("boom in the observer") },
            "\(result)")
        let count = try await sandbox.quarry(["store.db", "-e", "print(count('Item'))"])
        #expect(count.status == 0 && count.lines == ["3"], "\(count)")
    }

    /// The same through -e, with a later -e still run, and through a piped script; a run
    /// whose observers all succeed still exits 0.
    @Test func chunksAndPipedScriptsToo() async throws {
        let sandbox = try Sandbox()
        let chunks = try await sandbox.quarry([":memory:", "-e", Self.script, "-e", "print('next chunk')"])
        #expect(chunks.status == 1 && chunks.lines == ["after save\t2", "end\t3", "next chunk"], "\(chunks)")
        let piped = try await sandbox.quarry([":memory:", "-"], stdin: Self.script)
        #expect(piped.status == 1 && piped.lines == ["after save\t2", "end\t3"], "\(piped)")
        let fine = try await sandbox.quarry([":memory:", "-e", Self.script.replacingOccurrences(of: #"error("boom in the observer")"#, with: "")])
        #expect(fine.status == 0 && fine.stderr.isEmpty && fine.lines == ["after save\t2", "end\t3"], "\(fine)")
    }
}
