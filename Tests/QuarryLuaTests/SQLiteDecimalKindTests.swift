import Foundation
import QuarryShell
import Testing

/// A decimal attribute is a decimal on every engine: SQLite keeps it as a double, and a
/// reopened store read it back as a Lua number (`typeof` "number"), where PostgreSQL and
/// an unsaved object give a decimal. Read back, it is the decimal of the double's
/// shortest text, and setting it to itself changes nothing.
@Suite struct SQLiteDecimalKindTests {
    @Test func aDecimalReadBackFromSQLiteIsADecimal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("d.db").path
        do {
            let h = try Harness(context: try StoreOpener.open(path))
            h.run(#"entity "P" { price = "decimal?" }; P:new{ price = decimal("1.5") }; P:new{ price = decimal("0.1") }; P:new{ price = 7 }; save()"#)
        }
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(h.string("typeof(P:get(1).price) .. ' ' .. tostring(P:get(1).price)") == "decimal 1.5")
        #expect(h.string("typeof(P:get(2).price) .. ' ' .. tostring(P:get(2).price)") == "decimal 0.1")
        #expect(h.string("typeof(P:get(3).price)") == "decimal")
        #expect(h.string("P:get(2).price == decimal('0.1')") == "true")
        h.run("for _, p in ipairs(fetch('P')) do p.price = p.price end")
        #expect(h.string("haschanges()") == "false")
        #expect(h.string("count('P', 'price == %@', P:get(2).price)") == "1")
        #expect(h.string("predicate('price == %@', decimal('1.5')):matches(P:get(1))") == "true")
    }
}
