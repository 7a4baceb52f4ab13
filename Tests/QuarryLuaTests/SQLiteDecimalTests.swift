import Foundation
import GRDB
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Decimals on SQLite (issue 61, round five): the column is REAL, so SQL compares and
/// computes a decimal as a double; memory (`p:matches`, observers) does the same there,
/// and a save or updateall that would round a decimal to fit a double is refused.
@Suite struct SQLiteDecimalTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("quarry-decimal-\(getpid())-\(name)-\(UUID().uuidString)").path
    }

    private func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", ".quarry"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func files(_ path: String) -> [Data?] { ["", "-wal"].map { FileManager.default.contents(atPath: path + $0) } }

    /// Decimals a double holds exactly as written (a save keeps them): short fractions,
    /// thirds and random doubles at 15 to 17 significant digits, negatives, zero.
    private func rowValue(_ rng: inout SplitMix64) -> String {
        switch rng.int(0...4) {
        case 0:
            return rng.pick([
                "0", "-0", "0.1", "0.2", "0.3", "-0.1", "1", "3", "-3", "0.5", "2.5", "195.10", "100", "1e-5",
                "123456789012345", "0.3333333333333333", "0.30000000000000004", "-0.6666666666666666"
            ])
        case 1: return "\(Double(rng.int(-30...30)) / 10)"
        case 2: return "\(Double(rng.int(-30...30)) / 3)"
        case 3: return "\(Double(rng.int(-1_000_000...1_000_000)) / 1000)"
        default: return "\(Double.random(in: -1000...1000, using: &rng))"
        }
    }

    /// A predicate argument: any row value, or text with more digits than a double keeps.
    private func argument(_ rng: inout SplitMix64, _ rows: [String]) -> String {
        switch rng.int(0...3) {
        case 0: return rng.pick(["0.3", "0.30000000000000001", "0.33333333333333333", "0.1", "1", "0", "-0.1", "0.9", "1.3"])
        case 1:
            let row = rng.pick(rows)
            return row.contains(".") && !row.contains("e") ? row + String(rng.int(1...9)) : row
        default: return rng.pick(rows)
        }
    }

    @Test func sqlAndMemoryAgreeOnDecimalsOfASQLiteStore() throws {
        let path = temporaryPath("differential")
        defer { remove(path) }
        var rng = SplitMix64(seed: 6_101)
        let rows = (0..<160).map { _ in rowValue(&rng) }
        let forms: [(String, Int)] = [
            ("y == %@", 1), ("y != %@", 1), ("y < %@", 1), ("y <= %@", 1), ("y > %@", 1), ("y >= %@", 1),
            ("y BETWEEN %@", -2), ("y IN %@", -3), ("y / 3 > %@", 1), ("y / 3 == %@", 1), ("y * 3 == %@", 1),
            ("y * 2 + 1 >= %@", 1), ("y + %@ == %@", 2), ("y - %@ < %@", 2), ("y * %@ <= %@", 2), ("%@ * 3 == y", 1),
            ("y * n > %@", 1), ("y / n < %@", 1), ("abs:(y) >= %@", 1), ("y > 0.3", 0), ("y * 3 == 0.3", 0), ("NOT (y < %@)", 1)
        ]
        var cases: [String] = []
        for _ in 0..<12 {
            for (format, count) in forms {
                let arguments = (0..<abs(count)).map { _ in "decimal(\"\(argument(&rng, rows))\")" }
                let passed = count < 0 ? ["{" + arguments.joined(separator: ", ") + "}"] : arguments
                cases.append("{ \"\(format)\", \(passed.joined(separator: ", ")) }")
            }
        }
        let lua = """
            cases = {
            \(cases.joined(separator: ",\n"))
            }
            failures = {}
            function inMemory(objects, c)
              local p = predicate(c[1], table.unpack(c, 2))
              local n = 0
              for _, o in ipairs(objects) do if p:matches(o) then n = n + 1 end end
              return n
            end
            function check(label, objects, results)
              for i, c in ipairs(cases) do
                local sql, memory = count("T", c[1], table.unpack(c, 2)), inMemory(objects, c)
                if results then results[i] = memory end
                if sql ~= memory then
                  failures[#failures + 1] = label .. ": " .. tostring(predicate(c[1], table.unpack(c, 2))) .. ": SQL " .. sql .. ", memory " .. memory
                end
              end
            end
            """
        do {
            let h = try Harness(context: try StoreOpener.open(path))
            let values: String = rows.map { "\"\($0)\"" }.joined(separator: ", ")
            let header: String = #"entity "T" { y = "decimal?", n = "int64?" }"# + "\n" + lua + "\nvalues = {" + values + "}\n"
            h.run(
                header
                    + #"""
                    unsaved = {}
                    for i, v in ipairs(values) do unsaved[#unsaved + 1] = T:new{ y = decimal(v), n = i % 7 - 3 } end
                    unsaved[#unsaved + 1] = T:new{ n = 2 }
                    before = {}
                    for i, c in ipairs(cases) do before[i] = inMemory(unsaved, c) end
                    save()
                    check("saved", unsaved)
                    for i, c in ipairs(cases) do
                      if before[i] ~= count("T", c[1], table.unpack(c, 2)) then
                        failures[#failures + 1] = "unsaved: " .. c[1] .. ": before the save " .. before[i]
                      end
                    end
                    assert(#cases == \#(cases.count))
                    """#)
            #expect(h.string("#failures") == "0", "\(h.string("table.concat(failures, '\\n')") ?? "")")
            // Some predicates select some rows and some none: the comparison is not empty.
            #expect(h.string("count('T', 'y / 3 > %@', decimal('0.3'))") != "0")
            #expect(h.string("count('T', 'y == %@', decimal('0.1'))") == h.string("count('T', 'y == 0.1')"))
        }
        // Read back in a new session: the objects' values are the doubles the rows hold.
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(lua + "\ncheck(\"reopened\", fetch(\"T\"))")
        #expect(h.string("#failures") == "0", "\(h.string("table.concat(failures, '\\n')") ?? "")")
        #expect(h.string("count('T')") == String(rows.count + 1))
    }

    /// The case reported: `y / 3 > decimal("0.3")` counted 0 in SQL where memory found rows.
    @Test func aDecimalArgumentMeetsARealColumnAsANumber() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "T" { y = "decimal" }
            for _, v in ipairs{ "0.1", "0.9", "1.2", "3", "0.3" } do T:new{ y = decimal(v) } end
            save()
            """#)
        #expect(h.string(#"count("T", "y / 3 > %@", decimal("0.3"))"#) == "2")
        #expect(h.string(#"count("T", "y == %@", decimal("0.30"))"#) == "1")
        #expect(h.string(#"count("T", "y IN %@", {decimal("0.1"), decimal("3")})"#) == "2")
        #expect(h.string(#"predicate("y * 3 == %@", decimal("0.3")):matches(T:first("y == 0.1"))"#) == "false")
        #expect(h.string(#"count("T", "y * 3 == %@", decimal("0.3"))"#) == "0")
    }

    /// A decimal attribute reads as a decimal in the run that saved it and after reopening
    /// (the double's shortest text), before and after the object is made: it read as a
    /// Lua number after reopening, and `o.y == decimal("0.1")` turned false (issue 81).
    @Test func aDecimalReadsAsADecimalAfterReopening() throws {
        let path = temporaryPath("reopened")
        defer { remove(path) }
        let first = try Harness(context: try StoreOpener.open(path))
        first.run(#"entity "T" { y = "decimal?" }; T:new{ y = decimal("0.1") }; T:new{ y = 3 }; T:new{ y = 2.5 }; save()"#)
        let check = #"""
            (function()
              local r = T:fetch{ sort = { "y" } }
              local cells = { typeof(r[1].y), tostring(r[1].y == decimal("0.1")), typeof(r[2].y), tostring(r[3].y == decimal("3")) }
              for _, o in ipairs(r) do o:objectID() end
              return table.concat(cells, " ") .. " | " .. typeof(r[1].y) .. " " .. tostring(r[1].y == decimal("0.1"))
            end)()
            """#
        #expect(first.string(check) == "decimal true decimal true | decimal true")
        let reopened = try Harness(context: try StoreOpener.open(path))
        #expect(reopened.string(check) == "decimal true decimal true | decimal true")
        #expect(reopened.string(#"count("T", "y == %@", decimal("0.1"))"#) == "1")
    }

    @Test func aDecimalNoDoubleHoldsIsRefusedWithNothingWritten() throws {
        let path = temporaryPath("refused")
        defer { remove(path) }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"entity "T" { y = "decimal?", name = "string?" }; T:new{ y = decimal("1.5"), name = "kept" }; save()"#)
        let before = files(path)
        for digits in ["0.12345678901234567", "12345678901234567890", "1e-400", "1e400"] {
            let message = h.error(#"T:new{ y = decimal("\#(digits)"), name = "new" }; save()"#)
            // Past a double's range the value is named as `tostring` prints it, in full.
            let named = digits.contains("e") || message.contains(digits)
            #expect(message.contains("T.y of T/t") && named && message.contains("double"), "\(message)")
            #expect(!message.contains("\n"), "\(message)")
            #expect(files(path) == before, "\(digits)")
            h.run("rollback()")
        }
        let update = h.error(#"T:updateall("name == 'kept'", {}, { y = decimal("0.12345678901234567") })"#)
        #expect(update.contains("updateall") && update.contains("T.y") && update.contains("0.12345678901234567"), "\(update)")
        #expect(!update.contains("\n"))
        let changed = h.error(#"local t = T:first("name == 'kept'"); t.y = decimal("2.00000000000000001"); save()"#)
        #expect(changed.contains("T.y of T/1") && changed.contains("2.00000000000000001"), "\(changed)")
        h.run("rollback()")
        #expect(files(path) == before)
        // Digits a double holds are written, and read back equal.
        h.run(#"T:new{ y = decimal("0.1234567890123457"), name = "fits" }; save()"#)
        #expect(h.string(#"count("T", "y == %@", decimal("0.1234567890123457"))"#) == "1")
        let stored = try DatabaseQueue(path: path).read { db in try Double.fetchOne(db, sql: #"SELECT y FROM "T" WHERE name = 'fits'"#) }
        #expect(stored == 0.1234567890123457)
    }

    /// A Core Data store keeps a Decimal attribute in a column of numeric affinity: the
    /// same refusal, and SQL and memory agree on it.
    @Test func aCoreDataDecimalNoDoubleHoldsIsRefused() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let xml = try String(
            contentsOfFile: try CoreDataFixtures.path("cars/SampleModel.xcdatamodeld/SampleModel.xcdatamodel/contents"), encoding: .utf8)
        let marker = #"<attribute name="maker" optional="YES" attributeType="String"/>"#
        #expect(xml.contains(marker))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("Priced.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try xml.replacingOccurrences(of: marker, with: marker + #"<attribute name="price" optional="YES" attributeType="Decimal"/>"#)
            .write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let writer = try DatabaseQueue(path: path)
        try writer.write { db in try db.execute(sql: "DELETE FROM Z_MODELCACHE; ALTER TABLE ZCAR ADD COLUMN ZPRICE DECIMAL") }
        try writer.close()
        let h = try Harness(context: try StoreOpener.open(path, model: folder.path))
        h.run(
            #"""
            local cars = fetch("Car")
            assert(#cars >= 3)
            for i, c in ipairs(cars) do c.price = decimal(({ "0.1", "0.2", "0.3", "1.5" })[i % 4 + 1]) end
            save()
            """#)
        let before = ["", "-wal"].map { FileManager.default.contents(atPath: path + $0) }
        let message = h.error(#"local c = fetch("Car")[1]; c.price = decimal("0.30000000000000001234"); save()"#)
        #expect(message.contains("Car.price of Car/") && message.contains("0.30000000000000001234"), "\(message)")
        #expect(!message.contains("\n"))
        #expect(["", "-wal"].map { FileManager.default.contents(atPath: path + $0) } == before)
        h.run("rollback()")
        for (format, argument) in [("price * 3 > %@", "0.6"), ("price == %@", "0.3"), ("price / 3 < %@", "0.1"), ("price + 0.2 == %@", "0.3")] {
            let lua = #"predicate("\#(format)", decimal("\#(argument)"))"#
            let memory = h.string(
                #"(function() local n = 0; for _, c in ipairs(fetch("Car")) do if \#(lua):matches(c) then n = n + 1 end end; return n end)()"#)
            #expect(memory == h.string(#"count("Car", "\#(format)", decimal("\#(argument)"))"#), "\(format) \(argument)")
        }
        #expect(h.string(#"count("Car", "price / 3 > %@", decimal("0.3"))"#) != "0")
    }
}
