import Foundation
import QuarryLua
import QuarryStore
import Testing

/// `model()` of an Xcode model of thousands of entities (issue 61 item 5: 1,000 entities
/// took 1.3 s and 4,000 took 20.5 s, as each definition copied the whole model and asked
/// every entity whether it was another program's table). Its time belongs in
/// `scripts/bench`, never in a test; this checks that such a model is defined whole,
/// relationships and inverses included.
@Suite struct LargeModelTests {
    /// A model of `count` entities, each with four attributes, a to-one to the next and
    /// its inverse to-many, written as Xcode writes it.
    static func model(_ count: Int) throws -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel">"#
        for i in 0..<count {
            let next = (i + 1) % count
            let previous = (i + count - 1) % count
            xml += #"<entity name="E\#(i)">"#
            for (a, type) in ["String", "Integer 64", "Double", "Date"].enumerated() {
                xml += #"<attribute name="a\#(a)" optional="YES" attributeType="\#(type)"/>"#
            }
            xml +=
                #"<relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E\#(next)" inverseName="prev" inverseEntity="E\#(next)"/>"#
            xml +=
                #"<relationship name="prev" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="E\#(previous)" inverseName="next" inverseEntity="E\#(previous)"/>"#
            xml += "</entity>"
        }
        xml += "</model>"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linear-\(UUID().uuidString)/M\(count).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try xml.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return folder.path
    }

    @Test func aModelOfTwoThousandEntitiesIsDefinedWhole() throws {
        let large = try Self.model(2_000)
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: large).deletingLastPathComponent().path) }
        let h = try Harness()
        h.run(#"assert(#model("\#(large)") == 2000)"#)
        h.run(#"local a, b = E1998:new{ a0 = "x" }, E1999:new{}; a.next = b; save()"#)
        #expect(h.string(#"#E1999:first().prev"#) == "1")
        #expect(h.string(#"E0:first() == nil"#) == "true")
    }

    /// The same through a script's own `entity` calls, each outside any batch (3,000 took
    /// over a minute in a debug build: each call scanned every entity defined before it).
    /// Each entity names the one before it with an inverse it does not declare, which must
    /// come in whole.
    @Test func aScriptOfThreeThousandEntityCallsIsDefinedWhole() throws {
        let h = try Harness()
        var script = ""
        for i in 0..<3_000 {
            let up = i > 0 ? #", up = { one = "S\#(i - 1)", inverse = "down" }"# : ""
            script += #"entity "S\#(i)" { a = "string?"\#(up) }"# + "\n"
        }
        h.run(script)
        #expect(h.string("#entities()") == "3000")
        h.run(#"local a, b = S2998:new{ a = "x" }, S2999:new{}; b.up = a; save()"#)
        #expect(h.string(#"#S2998:first().down"#) == "1")
        #expect(h.string(#"S2999:first().up.a"#) == "x")
    }
}
