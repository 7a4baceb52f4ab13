import Foundation
import GRDB
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryStores
import QuarryTestSupport
import Testing

@Suite struct DescriptionTests {
    @Test(arguments: [
        ("a = 1 and (b <> 2 or not c =< 3)", "a == 1 AND (b != 2 OR NOT c <= 3)"),
        ("a == 1 OR b == 2 AND c == 3", "a == 1 OR b == 2 AND c == 3"),
        ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
        ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
        ("!(a == 1) && b => 2", "NOT a == 1 AND b >= 2"),
        ("truepredicate or falsepredicate", "TRUEPREDICATE OR FALSEPREDICATE"),
        ("s ==[cd] 'café'", #"s ==[cd] "café""#),
        ("s <[dc] \"x\"", #"s <[cd] "x""#),
        (#"s == 'it\'s "q" \\'"#, #"s == "it's \"q\" \\""#),
        ("flag == true AND other == no", "flag == YES AND other == NO"),
        ("a == NULL", "a == nil"),
        ("x > 3.0 AND y < 0x10", "x > 3.0 AND y < 16"),
        ("x > -2.5", "x > -2.5"),
        ("1 < n", "1 < n"),
        ("owner.name == 'x'", #"owner.name == "x""#)
    ])
    func normalizedForm(_ format: String, _ normal: String) throws {
        #expect(try parse(format).description == normal)
    }

    @Test(arguments: [
        "a == 1",
        "a = 1 and (b <> 2 or not c =< 3)",
        "a == 1 OR b == 2 AND c == 3",
        "(a == 1 OR b == 2) AND c == 3",
        "NOT (a == 1 AND b == 2)",
        "NOT NOT a == 1",
        "NOT (NOT a == 1 OR b == 2)",
        "!(a == 1 || b == 2) && c >= -4",
        "s ==[c] 'café' OR s !=[d] 'Straße' OR s <[cd] \"x\"",
        #"s == "quote \" backslash \\ apostrophe ' done""#,
        #"s == "line\nbreak\ttab""#,
        "s == ''",
        "a == nil OR nil != b",
        "flag == YES AND flag != no",
        "x > 1.5 AND x < -2.5e-3 AND x != 1e300 AND x != 0.1",
        "n == 0x10 OR n == -9223372036854775807",
        "TRUEPREDICATE",
        "FALSEPREDICATE OR a == 1",
        "owner.name == 'x'",
        "1 < n",
        "a == 1 OR (b == 2 OR c == 3)",
        "(a == 1 AND b == 2) AND c == 3",
        "#size == 1"
    ])
    func descriptionParsesBackToTheSameTree(_ format: String) throws {
        let original = try parse(format)
        let text = original.description
        let reparsed = try parse(text)
        #expect(shape(reparsed) == shape(original), "\(format) → \(text)")
        #expect(reparsed.description == text)
    }

    @Test(arguments: [
        Value.integer(.max), .integer(.min), .integer(-1),
        .real(0.1), .real(-1e-300), .real(123456789.123), .real(1e22), .real(-0.5), .real(.infinity),
        .text("quote \" backslash \\ apostrophe ' newline \n end"), .text("café 日本 🙂"),
        .bool(true), .bool(false), .null,
        .date(1705940772.25), .date(1705940772.123), .date(0), .date(1.1), .date(-14182940.5),
        .date(1705940772.123456) // what now() gives: finer than a millisecond
    ])
    func substitutedValuesSurviveTheRoundTrip(_ value: Value) throws {
        let original = try parse("v == %@", [value])
        let text = original.description
        let reparsed = try parse(text)
        #expect(shape(reparsed) == shape(original), "\(value) → \(text)")
    }
}

@Suite struct SQLTests {
    let entity = EntityDescription(
        name: "Item",
        attributes: [
            AttributeDescription(name: "title", type: .string, isOptional: true),
            AttributeDescription(name: "n", type: .int64, isOptional: true),
            AttributeDescription(name: "x", type: .double, isOptional: true),
            AttributeDescription(name: "flag", type: .bool, isOptional: true),
            AttributeDescription(name: "when", type: .date, isOptional: true)
        ])

    func sql(_ format: String, _ args: [Value] = []) throws -> SQLFragment {
        try BoundPredicate(try parse(format, args), entity: entity).sql(dialect: SQLiteDialect())
    }

    @Test func simpleComparisons() throws {
        // `=` where NULL and false answer alike (an index answers it in every engine); IS
        // under NOT, where nil == 5 must be false, not NULL, and against nil.
        let eq = try sql("n == 5")
        #expect(eq.sql == #""Item"."n" = ?"#)
        #expect(try sql("NOT n == 5").sql == #"NOT ("Item"."n" IS ?)"#)
        #expect(try sql("n == nil").sql.contains("IS"))
        #expect(eq.arguments == [.integer(5)])
        #expect(try sql("n != 5").sql == #""Item"."n" IS NOT ?"#)
        #expect(try sql("n < 5").sql == #""Item"."n" < ?"#)
        #expect(try sql("n >= 5").sql == #""Item"."n" >= ?"#)
        #expect(try sql("TRUEPREDICATE").arguments.isEmpty)
        let qualified = try BoundPredicate(try parse("n == 5"), entity: entity).sql(qualifier: "t", dialect: SQLiteDialect())
        #expect(qualified.sql == #""t"."n" = ?"#)
    }

    @Test func everyValueIsBoundAsAParameter() throws {
        let injected = "secret' OR 1=1 --"
        let fragment = try sql(
            "title == %@ AND n > %d OR title ==[c] 'literal text' OR x < 2.5 OR flag == YES OR when > '2024-01-01' OR n == nil OR 77 < n",
            [.text(injected), .integer(424242)])
        #expect(
            fragment.arguments == [
                .text(injected), .integer(424242), .text("literal text"), .real(2.5), .bool(true),
                .date(1_704_067_200), .null, .integer(77)
            ])
        #expect(fragment.sql.filter { $0 == "?" }.count == fragment.arguments.count)
        for forbidden in ["secret", "424242", "literal", "2.5", "2024", "YES", "NULL", "nil", "77", "'"] {
            #expect(!fragment.sql.contains(forbidden), "\(forbidden) appears in \(fragment.sql)")
        }
    }

    @Test func theSQLRunsAndBindsTheInjectionAsAValue() throws {
        let context = try StoreOpener.open(nil)
        try context.define(entity)
        _ = try context.insert(into: "Item", values: ["title": .text("a"), "n": .integer(1)])
        _ = try context.insert(into: "Item", values: ["title": .text("x' OR 1=1 --"), "n": .integer(2)])
        try context.save()
        let fragment = try sql("title == %@ OR title ==[cd] %@", [.text("x' OR 1=1 --"), .text("nothing")])
        let keys = try context.connection.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT _pk FROM Item WHERE \(fragment.sql)",
                arguments: StatementArguments(fragment.arguments.map(\.databaseValue)))
        }
        #expect(keys == [2])
        let tables = try context.connection.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'Item'") }
        #expect(tables == 1)
    }
}

@Suite struct FoldingTests {
    @Test func foldingOptions() {
        let cd: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect(PredicateFunctions.fold("CAFÉ", cd) == PredicateFunctions.fold("cafe", cd))
        #expect(PredicateFunctions.fold("Café", .caseInsensitive) == PredicateFunctions.fold("CAFÉ", .caseInsensitive))
        #expect(PredicateFunctions.fold("café", .caseInsensitive) != PredicateFunctions.fold("cafe", .caseInsensitive))
        #expect(PredicateFunctions.fold("café", .diacriticInsensitive) == "cafe")
        #expect(PredicateFunctions.fold("Café", .diacriticInsensitive) != PredicateFunctions.fold("cafe", .diacriticInsensitive))
        #expect(PredicateFunctions.fold("Abc", []) == "Abc")
    }

    @Test func openInstallsTheSQLFunctions() throws {
        let context = try StoreOpener.open(nil)
        let folded = try context.connection.read { db in try String.fetchOne(db, sql: "SELECT quarry_fold('CAFÉ', 3)") }
        #expect(folded == PredicateFunctions.fold("CAFÉ", [.caseInsensitive, .diacriticInsensitive]))
        let null = try context.connection.read { db in try DatabaseValue.fetchOne(db, sql: "SELECT quarry_fold(NULL, 3)") }
        #expect(null == .null)
        let plain = try OpenFileRequest.open(path: nil)
        #expect(throws: (any Error).self) { try plain.connection.read { db in try String.fetchOne(db, sql: "SELECT quarry_fold('x', 1)") } }
    }

    @Test func caseInsensitiveComparisonInSQLAndInMemory() throws {
        let context = try StoreOpener.open(nil)
        let entity = EntityDescription(name: "Item", attributes: [AttributeDescription(name: "s", type: .string, isOptional: true)])
        try context.define(entity)
        let words = ["café", "CAFÉ", "cafe", "CAFE", "Café", "tea", ""]
        let objects = try words.map { try context.insert(into: "Item", values: ["s": .text($0)]) }
        let nilObject = try context.insert(into: "Item", values: [:])
        try context.save()
        let expectations: [(String, Set<String>)] = [
            ("s == 'café'", ["café"]),
            ("s ==[c] 'café'", ["café", "CAFÉ", "Café"]),
            ("s ==[d] 'cafe'", ["café", "cafe"]),
            ("s ==[cd] 'cafe'", ["café", "CAFÉ", "cafe", "CAFE", "Café"]),
            ("s !=[cd] 'CAFE'", ["tea", "", "<nil>"])
        ]
        for (format, expected) in expectations {
            let bound = try BoundPredicate(try parse(format), entity: entity)
            let fragment = bound.sql(dialect: SQLiteDialect())
            let keys = try selectedKeys(where: fragment, in: context)
            let bySQL = Set(
                try context.connection.read { db in
                    try String.fetchAll(
                        db, sql: "SELECT coalesce(s, '<nil>') FROM Item WHERE _pk IN (\(keys.map(String.init).joined(separator: ",")))")
                })
            #expect(bySQL == expected, "\(format) in SQL")
            var inMemory = Set(zip(words, objects).filter { bound.matches($0.1) }.map(\.0))
            if bound.matches(nilObject) { inMemory.insert("<nil>") }
            #expect(inMemory == expected, "\(format) in memory")
        }
    }
}

@Suite struct EvaluationTests {
    let entity = EntityDescription(
        name: "Item",
        attributes: [
            AttributeDescription(name: "n", type: .int64, isOptional: true),
            AttributeDescription(name: "s", type: .string, isOptional: true)
        ])

    @Test func threeValuedLogicWithNil() throws {
        let context = try StoreOpener.open(nil)
        try context.define(entity)
        let empty = try context.insert(into: "Item", values: [:])
        let five = try context.insert(into: "Item", values: ["n": .integer(5)])
        func matches(_ format: String, _ o: ManagedObject) throws -> Bool {
            try BoundPredicate(try parse(format), entity: entity).matches(o)
        }
        #expect(try matches("n == nil", empty))
        #expect(try !matches("n != nil", empty))
        #expect(try matches("n != 5", empty))
        #expect(try !matches("n < 5", empty))
        #expect(try !matches("NOT (n < 5)", empty))
        #expect(try !matches("NOT (n < 5 AND s == nil)", empty))
        #expect(try matches("NOT (n < 5 AND s != nil)", empty))
        #expect(try matches("n < 5 OR s == nil", empty))
        #expect(try !matches("n < 5 OR n > 5", five))
        #expect(try matches("NOT (n < 5 OR n > 5)", five))
        #expect(try matches("n == 5.0", five))
        #expect(try matches("TRUEPREDICATE", empty))
        #expect(try !matches("FALSEPREDICATE", five))
    }

    /// SQLite's own comparison of bound values is the reference for SQLOrdering.
    @Test func orderingAgreesWithSQLite() throws {
        let context = try StoreOpener.open(nil)
        var values: [Value] = [
            .null, .integer(0), .integer(-1), .integer(1), .integer(.max), .integer(.min), .integer(.max - 1), .integer(.min + 1),
            .integer(1 << 53), .integer((1 << 53) + 1), .integer(-(1 << 53) - 1),
            .real(0), .real(-0.0), .real(0.5), .real(-0.5), .real(1), .real(9_007_199_254_740_992), .real(9223372036854775808.0),
            .real(-9_223_372_036_854_775_808), .real(1e19), .real(-1e19), .real(.infinity), .real(-.infinity), .real(-1.5),
            .bool(true), .bool(false), .date(0.5), .date(1), .date(-2),
            .text(""), .text("a"), .text("A"), .text("é"), .text("e\u{301}"), .text("1"), .text("ab"), .text("a b"),
            .blob([]), .blob([0]), .blob([1, 2]), .blob([0x61])
        ]
        var rng = SplitMix64(seed: 42)
        for _ in 0..<40 {
            values.append(.integer(Int64(bitPattern: rng.next()) >> rng.int(0...62)))
            values.append(.real(Double(Int64(bitPattern: rng.next()) >> rng.int(0...62)) + rng.pick([0, 0.5, 0.25, -0.75])))
        }
        var disagreements: [String] = []
        try context.connection.read { db in
            let statement = try db.makeStatement(sql: "SELECT CASE WHEN ?1 < ?2 THEN -1 WHEN ?1 = ?2 THEN 0 WHEN ?1 > ?2 THEN 1 END")
            for a in values {
                for b in values {
                    let sqlite = try Int.fetchOne(statement, arguments: [a.databaseValue, b.databaseValue])
                    let ours = SQLOrdering.compare(a, b).map { $0.signum() }
                    if sqlite != ours {
                        disagreements.append("\(a) vs \(b): SQLite \(sqlite.map(String.init) ?? "NULL"), ours \(ours.map(String.init) ?? "nil")")
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10).joined(separator: "\n"))")
    }

    /// Text in arithmetic is read as SQLite reads it, with every space `sqlite3Isspace`
    /// skips (the vertical tab included) around the number.
    @Test func textInArithmeticAgreesWithSQLite() throws {
        let context = try StoreOpener.open(nil)
        let spaces = [" ", "\t", "\n", "\u{0B}", "\u{0C}", "\r"]
        var texts = [
            "7", "-7", "7.5", "1e3", ".5", "5.", "x7", "7x", "", "-", ".", "7.0x", " 7e", "7e+", "1e3x", "-0x", "0x10",
            "99999999999999999999x", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809"
        ]
        for space in spaces { texts += [space + "7", "7" + space, space + "7.5" + space, space + "-.5e1"] }
        var disagreements: [String] = []
        try context.connection.read { db in
            let statement = try db.makeStatement(sql: "SELECT ?1 + 0")
            for text in texts {
                let sqlite = try DatabaseValue.fetchOne(statement, arguments: [text]).map(Value.init) ?? .null
                let ours = ExpressionValues.arithmetic(.add, .text(text), .integer(0))
                if sqlite != ours { disagreements.append("\(text.debugDescription): SQLite \(sqlite), ours \(ours)") }
                let blob = try DatabaseValue.fetchOne(statement, arguments: [Data(text.utf8)]).map(Value.init) ?? .null
                let oursBlob = ExpressionValues.arithmetic(.add, .blob(Array(text.utf8)), .integer(0))
                if blob != oursBlob { disagreements.append("blob \(text.debugDescription): SQLite \(blob), ours \(oursBlob)") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.joined(separator: "\n"))")
    }
}
