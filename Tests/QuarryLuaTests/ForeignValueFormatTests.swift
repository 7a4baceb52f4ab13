import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// A value Quarry writes into a file it did not create keeps the format its column already
/// uses (issue 29): files are made by plain SQL with each date, boolean and UUID format,
/// rows are changed through Quarry (assignments, inserts, updateall), and plain SQL checks
/// each written value's storage class, layout and meaning.
@Suite struct ForeignValueFormatTests {
    /// A small seeded generator: every run tries the same files.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        /// A whole second between 2000 and 2030.
        mutating func instant() -> Int { int(946_684_800...1_893_456_000) }
    }

    /// One way a file keeps dates: how its owner writes Unix seconds `?1`, and what a value
    /// in that format must look like.
    struct DateFormat: CustomStringConvertible {
        let description: String
        let ownerSQL: String
        let storageClass: String
        /// The layout of text values.
        let pattern: String?
        /// Unix seconds as SQLite reads the stored value `v`.
        let secondsSQL: String
        /// What the value keeps of an instant: 86400 a day, 60 a minute, 1 a second, 0.001, 0.
        let precision: Double

        static let all: [DateFormat] = [
            .init(
                description: "iso-space", ownerSQL: "strftime('%Y-%m-%d %H:%M:%S', ?1, 'unixepoch')", storageClass: "text",
                pattern: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$"#, secondsSQL: "strftime('%s', v)", precision: 1),
            .init(
                description: "iso-t", ownerSQL: "strftime('%Y-%m-%dT%H:%M:%S', ?1, 'unixepoch')", storageClass: "text",
                pattern: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$"#, secondsSQL: "strftime('%s', v)", precision: 1),
            .init(
                description: "iso-t millis Z", ownerSQL: "strftime('%Y-%m-%dT%H:%M:%fZ', ?1 + 0.5, 'unixepoch')", storageClass: "text",
                pattern: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, secondsSQL: "(julianday(v) - 2440587.5) * 86400", precision: 0.001),
            .init(
                description: "iso-t Z", ownerSQL: "strftime('%Y-%m-%dT%H:%M:%SZ', ?1, 'unixepoch')", storageClass: "text",
                pattern: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, secondsSQL: "strftime('%s', v)", precision: 1),
            .init(
                description: "iso-space micros", ownerSQL: "strftime('%Y-%m-%d %H:%M:%S', ?1, 'unixepoch') || '.000000'", storageClass: "text",
                pattern: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$"#, secondsSQL: "(julianday(v) - 2440587.5) * 86400", precision: 0.001),
            .init(
                description: "iso-t offset", ownerSQL: "strftime('%Y-%m-%dT%H:%M:%S', ?1, 'unixepoch', '+2 hours') || '+02:00'", storageClass: "text",
                pattern: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$"#, secondsSQL: "strftime('%s', v)", precision: 1),
            .init(
                description: "iso-t offset without colon", ownerSQL: "strftime('%Y-%m-%dT%H:%M:%S', ?1, 'unixepoch', '-5 hours') || '-0500'",
                storageClass: "text",
                pattern: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}$"#,
                secondsSQL: "strftime('%s', substr(v, 1, 22) || ':' || substr(v, 23))", precision: 1),
            .init(
                description: "iso-date", ownerSQL: "strftime('%Y-%m-%d', ?1, 'unixepoch')", storageClass: "text",
                pattern: #"^\d{4}-\d\d-\d\d$"#, secondsSQL: "strftime('%s', v)", precision: 86400),
            .init(
                description: "iso-space minutes", ownerSQL: "strftime('%Y-%m-%d %H:%M', ?1, 'unixepoch')", storageClass: "text",
                pattern: #"^\d{4}-\d\d-\d\d \d\d:\d\d$"#, secondsSQL: "strftime('%s', v)", precision: 60),
            .init(description: "unix", ownerSQL: "?1", storageClass: "integer", pattern: nil, secondsSQL: "v", precision: 1),
            .init(description: "unix-real", ownerSQL: "?1 + 0.5", storageClass: "real", pattern: nil, secondsSQL: "v", precision: 0),
            .init(
                description: "unix-ms", ownerSQL: "?1 * 1000 + 250", storageClass: "integer", pattern: nil, secondsSQL: "v / 1000.0", precision: 0.001
            ),
            .init(
                description: "julian", ownerSQL: "julianday(?1, 'unixepoch')", storageClass: "real", pattern: nil,
                secondsSQL: "(v - 2440587.5) * 86400", precision: 0)
        ]

        /// The instant a value in this format keeps of `seconds` (Quarry rounds to the
        /// layout's digits; a date alone is the day).
        func kept(_ seconds: Double) -> Double {
            if precision == 86400 { return (seconds / 86400).rounded(.down) * 86400 }
            if precision == 0 { return seconds }
            return (seconds / precision).rounded() * precision
        }
    }

    /// Every date format, several files each: rows the owner wrote, then rows Quarry
    /// changed, inserted and batch-updated, each checked by plain SQL.
    @Test(arguments: DateFormat.all)
    func writtenDatesKeepTheColumnsFormat(_ format: DateFormat) throws {
        for seed in 1...4 {
            var g = Generator(state: UInt64(seed) &* 7919 &+ UInt64(format.description.utf8.count))
            let declared = ["DATETIME", "TIMESTAMP", "DATE"][g.int(0...2)]
            let rows = g.int(1...40)
            let path = try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, d \(declared), note TEXT)")
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                for i in 1...rows {
                    try db.execute(
                        sql: "INSERT INTO t (id, d, note) VALUES (?, \(format.ownerSQL.replacingOccurrences(of: "?1", with: "?2")), ?)",
                        arguments: [i, g.instant(), i % 3 == 0 ? "u" : nil])
                }
            }
            // What Quarry is asked to write, by row: a whole second and a quarter.
            var expected: [Int64: Double] = [:]
            let h = try Harness(context: try StoreOpener.open(path))
            for _ in 0..<g.int(1...5) {
                let id = Int64(g.int(1...rows))
                let seconds = Double(g.instant()) + 0.25
                h.run("t:get(\(id)).d = date(\(seconds))")
                expected[id] = seconds
            }
            let inserted = Double(g.instant()) + 0.25
            h.run(#"n = t:new{ d = date(\#(inserted)), note = "new" }; save()"#)
            expected[Int64(rows + 1)] = inserted
            #expect(h.string("n.id") == String(rows + 1))
            let batch = Double(g.instant()) + 0.25
            h.run(#"t:updateall("note == 'u'", {}, { d = date(\#(batch)) })"#)
            for id in try queue.read({ db in try Int64.fetchAll(db, sql: "SELECT id FROM t WHERE note = 'u'") }) { expected[id] = batch }
            // A second save of a changed object is no conflict: it reads what was written.
            if let (id, _) = expected.first {
                h.run("t:get(\(id)).note = 'again'; save()")
            }
            try queue.read { db in
                for (id, seconds) in expected {
                    // SQLite's own date functions read the value (NULL when they cannot).
                    let row = try Row.fetchOne(
                        db,
                        sql:
                            "SELECT typeof(d) AS kind, d AS v, CAST(\(format.secondsSQL.replacingOccurrences(of: "v", with: "d")) AS REAL) AS s FROM t WHERE id = ?",
                        arguments: [id])
                    let where_ = "\(format) seed \(seed) \(declared) row \(id)"
                    #expect(row?["kind"] == format.storageClass, "\(where_): \(String(describing: row))")
                    if let pattern = format.pattern, let text: String = row?["v"] {
                        #expect(text.range(of: pattern, options: .regularExpression) != nil, "\(where_): \(text)")
                    }
                    let read = Double.fromDatabaseValue(row?["s"] ?? .null) ?? .nan
                    #expect(abs(read - format.kept(seconds)) < 0.002, "\(where_): \(String(describing: row)) for \(seconds)")
                }
            }
            try queue.close()
        }
    }

    /// One way a file keeps booleans: its true and false (nil: the integers 1 and 0).
    @Test(
        arguments: [
            nil, ("true", "false"), ("TRUE", "FALSE"), ("True", "False"), ("Y", "N"), ("y", "n"),
            ("yes", "no"), ("T", "F"), ("on", "off")
        ] as [(String, String)?])
    func writtenBooleansKeepTheColumnsSpelling(_ spelling: (String, String)?) throws {
        for seed in 1...3 {
            var g = Generator(state: UInt64(seed) &* 104_729 &+ UInt64(spelling?.0.utf8.count ?? 0))
            let rows = g.int(1...20)
            let path = try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, b BOOLEAN)")
            let queue = try DatabaseQueue(path: path)
            // Some files show one value only: the other is spelled in the same case.
            let onlyTrue = g.int(0...2) == 0
            try queue.write { db in
                for i in 1...rows {
                    let value = onlyTrue || g.int(0...1) == 1
                    let stored: DatabaseValue = spelling.map { (value ? $0.0 : $0.1).databaseValue } ?? (value ? 1 : 0).databaseValue
                    try db.execute(sql: "INSERT INTO t (id, b) VALUES (?, ?)", arguments: [i, stored])
                }
            }
            let h = try Harness(context: try StoreOpener.open(path))
            var expected: [Int64: Bool] = [:]
            for _ in 0..<g.int(1...4) {
                let id = Int64(g.int(1...rows))
                let value = g.int(0...1) == 1
                h.run("t:get(\(id)).b = \(value)")
                expected[id] = value
            }
            h.run("t:new{ b = false }; save()")
            expected[Int64(rows + 1)] = false
            h.run(#"t:updateall("id == 1", {}, { b = true })"#)
            expected[1] = true
            // The objects read the file's spelling as booleans.
            #expect(h.string("t:get(1).b") == "true")
            #expect(h.string("t:get(\(rows + 1)).b") == "false")
            // Rows fetched afresh (read from their cells, not made objects) agree.
            let fresh = try Harness(context: try StoreOpener.open(path))
            #expect(fresh.string("fetch('t', 'id == 1')[1].b") == "true")
            #expect(fresh.string("fetch('t', 'id == \(rows + 1)')[1].b") == "false")
            try queue.read { db in
                for (id, value) in expected {
                    let stored = try DatabaseValue.fetchOne(db, sql: "SELECT b FROM t WHERE id = ?", arguments: [id]) ?? .null
                    let want: DatabaseValue = spelling.map { (value ? $0.0 : $0.1).databaseValue } ?? (value ? 1 : 0).databaseValue
                    #expect(stored == want, "\(String(describing: spelling)) seed \(seed) row \(id): \(stored)")
                }
            }
            try queue.close()
        }
    }

    /// One way a file keeps UUIDs: the column's declared type, and the owner's SQL for one
    /// from 16 random bytes `?1`.
    struct UUIDFormat: CustomStringConvertible {
        let description: String
        let declared: String
        let ownerSQL: String
        /// The stored value for `bytes`.
        let stored: @Sendable ([UInt8]) -> DatabaseValue

        static func hex(_ bytes: [UInt8], upper: Bool, hyphens: Bool) -> String {
            var text = bytes.map { String(format: upper ? "%02X" : "%02x", $0) }.joined()
            if hyphens { for i in [20, 16, 12, 8] { text.insert("-", at: text.index(text.startIndex, offsetBy: i)) } }
            return text
        }

        static let all: [UUIDFormat] = [
            .init(
                description: "uuid", declared: "TEXT",
                ownerSQL:
                    "lower(substr(hex(?1),1,8)||'-'||substr(hex(?1),9,4)||'-'||substr(hex(?1),13,4)||'-'||substr(hex(?1),17,4)||'-'||substr(hex(?1),21))",
                stored: { hex($0, upper: false, hyphens: true).databaseValue }),
            .init(
                description: "UUID", declared: "VARCHAR(36)",
                ownerSQL:
                    "substr(hex(?1),1,8)||'-'||substr(hex(?1),9,4)||'-'||substr(hex(?1),13,4)||'-'||substr(hex(?1),17,4)||'-'||substr(hex(?1),21)",
                stored: { hex($0, upper: true, hyphens: true).databaseValue }),
            .init(
                description: "uuid-compact", declared: "TEXT", ownerSQL: "lower(hex(?1))",
                stored: { hex($0, upper: false, hyphens: false).databaseValue }),
            .init(
                description: "UUID-COMPACT", declared: "CHAR(32)", ownerSQL: "hex(?1)", stored: { hex($0, upper: true, hyphens: false).databaseValue }
            ),
            .init(description: "uuid-blob (UUID)", declared: "UUID", ownerSQL: "?1", stored: { Data($0).databaseValue }),
            .init(description: "uuid-blob (BLOB)", declared: "BLOB", ownerSQL: "?1", stored: { Data($0).databaseValue })
        ]
    }

    /// A UUID written as text in any layout is stored in the column's layout.
    @Test(arguments: UUIDFormat.all)
    func writtenUUIDsKeepTheColumnsLayout(_ format: UUIDFormat) throws {
        for seed in 1...3 {
            var g = Generator(state: UInt64(seed) &* 15_485_863 &+ UInt64(format.description.utf8.count))
            func bytes() -> [UInt8] { (0..<16).map { _ in UInt8(truncatingIfNeeded: g.next()) } }
            let rows = g.int(1...15)
            let path = try foreignFile("CREATE TABLE t (id INTEGER PRIMARY KEY, u \(format.declared))")
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                for i in 1...rows {
                    try db.execute(
                        sql: "INSERT INTO t (id, u) VALUES (?, \(format.ownerSQL.replacingOccurrences(of: "?1", with: "?2")))",
                        arguments: [i, Data(bytes())])
                }
            }
            let h = try Harness(context: try StoreOpener.open(path))
            var expected: [Int64: [UInt8]] = [:]
            for _ in 0..<g.int(1...4) {
                let id = Int64(g.int(1...rows))
                let value = bytes()
                // Given in any layout.
                let given = UUIDFormat.hex(value, upper: g.int(0...1) == 1, hyphens: g.int(0...1) == 1)
                h.run(#"t:get(\#(id)).u = "\#(given)""#)
                expected[id] = value
            }
            let value = bytes()
            h.run(#"t:new{ u = "\#(UUIDFormat.hex(value, upper: true, hyphens: true))" }; save()"#)
            expected[Int64(rows + 1)] = value
            try queue.read { db in
                for (id, value) in expected {
                    let stored = try DatabaseValue.fetchOne(db, sql: "SELECT u FROM t WHERE id = ?", arguments: [id]) ?? .null
                    #expect(stored == format.stored(value), "\(format) seed \(seed) row \(id): \(stored)")
                }
            }
            try queue.close()
        }
    }
}
