import Foundation
import Testing

/// `quarry` reads Swift through the `quarry-swift-reader` process beside it: a #Predicate
/// with captures, sort keys and a refusal read as in the tests' in-process runtime; with
/// no reader beside it, a Swift read fails in one line and the script goes on.
@Suite struct SwiftReaderTests {
    static let script = #"""
        entity "Person" { name = "string", items = { many = "Item", inverse = "owner" } }
        entity "Item" { title = "string", n = "int64", when = "date?", owner = { one = "Person", inverse = "items" } }
        local ann = Person:new{ name = "Ann" }
        Item:new{ title = "a", n = 1, when = date(1577836800), owner = ann }
        Item:new{ title = "b", n = 5 }
        Item:new{ title = "c", n = 9, owner = ann }
        save()
        local f = fetch{ "Item", [[#Predicate<Item> { $0.n > least && $0.owner == who }]], vars = { least = 0, who = ann },
          sort = [[SortDescriptor(\.n, order: .reverse)]] }
        for _, i in ipairs(f) do print(i.title) end
        print(count("Item", [[let d = Date(timeIntervalSinceReferenceDate: 0)
        #Predicate<Item> { ($0.when ?? d) > d }]]))
        print(select(2, pcall(count, "Item", [[#Predicate<Item> { $0.n > }]])))
        print(select(2, pcall(fetch, { "Item", sort = [[SortDescriptor(\.n, order: .sideways)]] })))
        print(#fetch{ "Item", [[#Predicate<Item> { $0.n >= 5 }]] })
        """#

    @Test func swiftIsReadByTheReaderProcess() async throws {
        let sandbox = try Sandbox()
        let reader = sandbox.binary.deletingLastPathComponent().appendingPathComponent("quarry-swift-reader").path
        try #require(FileManager.default.isExecutableFile(atPath: reader), "no quarry-swift-reader beside \(sandbox.binary.path)")
        let result = try await sandbox.quarry(["-e", Self.script])
        #expect(result.status == 0, "\(result)")
        // As the reading in this process says them (SwiftPredicateReaderTests): the refusals with their columns.
        #expect(
            result.lines == [
                "c", "a", "1", "(command line):13: predicate: Swift: expected an expression at column 27",
                "(command line):14: sort: SortDescriptor's order is read as order: .forward/.reverse or comparator: .localizedStandard/.lexical at column 21",
                "2"
            ], "\(result)")
    }

    @Test func withNoReaderASwiftReadFailsInOneLineAndTheScriptGoesOn() async throws {
        let sandbox = try Sandbox()
        let alone = sandbox.path("alone")
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sandbox.binary.path, toPath: alone + "/quarry")
        let result = try await sandbox.run(
            URL(fileURLWithPath: alone + "/quarry"),
            ["-e", ##"print(select(2, pcall(predicate, "#Predicate<Item> { $0.n > 1 }"))) print(predicate("n > 1"), "went on")"##])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines.first?.hasSuffix(
                ": cannot read Swift: quarry-swift-reader not found beside \(alone)/quarry or in \(sandbox.directory.path)/libexec/quarry") == true,
            "\(result)")
        #expect(result.lines.count == 2 && result.lines.last?.hasSuffix("went on") == true, "\(result)")
    }
}
