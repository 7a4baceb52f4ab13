import GRDB
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// `[c]`, `[d]` and `[cd]` with BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES and ==: the
/// C functions SQLite runs (ASCII byte by byte, the rest through Swift) must answer as the
/// in-memory evaluator on tricky Unicode as well as plain ASCII.
@Suite struct StringFoldingTests {
    /// The C fast path folds ASCII text itself (A-Z to a-z for [c], nothing for [d]): that
    /// must be what Unicode folding does to every ASCII character.
    @Test func unicodeFoldingOfASCIIIsASCIILowercasing() {
        for byte in UInt8(1)...UInt8(127) {
            let text = String(UnicodeScalar(byte))
            let lower = String(UnicodeScalar(byte >= 65 && byte <= 90 ? byte + 32 : byte))
            #expect(PredicateFunctions.fold(text, [.caseInsensitive]) == lower, "\(byte)")
            #expect(PredicateFunctions.fold(text, [.diacriticInsensitive]) == text, "\(byte)")
            #expect(PredicateFunctions.fold(text, [.caseInsensitive, .diacriticInsensitive]) == lower, "\(byte)")
        }
    }

    static let texts: [String] = [
        "Straße", "STRASSE", "strasse", "café", "CAFÉ", "cafe\u{301}", "Café au lait", "naïve", "NAÏVE",
        "İstanbul", "ıi", "ǅ", "ǆ", "ß", "ẞ", "\u{212A}elvin", "kelvin", "ſun", "sun", "日本語テキスト", "Ωmega", "ωMEGA",
        "", "plain ascii", "N14228", "n1", "a*b?c\\d", "tab\there", "👍🏽 ok", "Zoë", "ZOE", "zoe", "Ångström", "angstrom"
    ]

    static let patterns: [String] = [
        "e", "É", "é", "e\u{301}", "ss", "ß", "SS", "k", "K", "\u{212A}", "s", "ſ", "cafe", "CAFE", "n1", "N1",
        "*e*", "?a*", "a\\*b*", "", "日本", "ω", "Ω", "zoe", "ZOË", "👍", "ANG*", "*ROM", ".*e.*", "[a-z]+"
    ]

    @Test func sqlAgreesWithTheEvaluator() throws {
        let context = try StoreOpener.open(nil)
        let entity = try context.define(
            EntityDescription(
                name: "Item",
                attributes: [
                    AttributeDescription(name: "s", type: .string, isOptional: true),
                    AttributeDescription(name: "t", type: .string, isOptional: true)
                ]))
        var objects: [ManagedObject] = []
        for (i, text) in Self.texts.enumerated() {
            // `t` holds a pattern per row, so patterns that are not constants are tried too.
            objects.append(try context.insert(into: "Item", values: ["s": .text(text), "t": .text(Self.patterns[i % Self.patterns.count])]))
        }
        objects.append(try context.insert(into: "Item", values: ["s": .null, "t": .text("e")]))
        try context.save()

        var mismatches: [String] = []
        var matchedSome = 0
        var cases = 0
        var refused = 0
        func check(_ format: String, _ arguments: [Value]) throws {
            let bound: BoundPredicate
            do {
                bound = try BoundPredicate(
                    try PredicateParser.parse(format, arguments: PredicateArguments(arguments)), entity: entity, context: context)
            } catch let error as PredicateError where format.contains("MATCHES") {
                // A pattern that is no regular expression (`*e*`) is refused before either runs.
                #expect(error.description.contains("regular expression"))
                refused += 1
                return
            }
            let fragment = bound.sql(dialect: SQLiteDialect())
            let bySQL = try context.connection.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT _pk FROM Item WHERE \(fragment.sql) ORDER BY _pk",
                    arguments: StatementArguments(fragment.arguments.map(\.databaseValue)))
            }
            let inMemory = objects.filter { bound.matches($0) }.map { $0.primaryKey! }
            cases += 1
            if !inMemory.isEmpty && inMemory.count < objects.count { matchedSome += 1 }
            if bySQL != inMemory {
                let differing = Set(bySQL).symmetricDifference(inMemory).map { key in
                    (try? objects.first { $0.primaryKey == key }?.value(forKey: "s").displayString) ?? "?"
                }
                mismatches.append("\(format) \(arguments): \(differing)")
            }
        }
        for op in ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "=="] {
            for options in ["", "[c]", "[d]", "[cd]"] {
                for pattern in Self.patterns { try check("s \(op)\(options) %@", [.text(pattern)]) }
                try check("s \(op)\(options) t", [])
                try check("NOT (s \(op)\(options) %@)", [.text("e")])
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) disagreements:\n\(mismatches.prefix(10).joined(separator: "\n"))")
        #expect(matchedSome > cases / 3)
        #expect(refused > 0 && refused < 20)
    }

    /// Issue #79: `[c]`, `[d]` and `[cd]` find canonically equivalent strings equal
    /// (`"cafe\u{301}"` and `"CAFÉ"`), as Foundation's non-literal comparison and search do,
    /// and CONTAINS finds no empty string, as NSString's search finds none; a plain `==`
    /// compares code points, as a store does. Foundation, in this process, is the judge;
    /// SQL (SQLite's C functions) and memory must both give its rows.
    @Test func canonicallyEquivalentTextMatchesAsFoundationFindsIt() throws {
        let texts = [
            "café", "CAFÉ", "cafe\u{301}", "CAFE\u{301}", "cafe", "Café au lait", "Cafe\u{301} au lait", "naïve", "nai\u{308}ve", "NAÏVE", "",
            "plain"
        ]
        let patterns = ["café", "CAFÉ", "cafe\u{301}", "É", "e\u{301}", "e", "naïve", "NAI\u{308}VE", "", "a"]
        let context = try StoreOpener.open(nil)
        let entity = try context.define(
            EntityDescription(name: "Item", attributes: [AttributeDescription(name: "s", type: .string, isOptional: true)]))
        var objects: [ManagedObject] = []
        for text in texts { objects.append(try context.insert(into: "Item", values: ["s": .text(text)])) }
        try context.save()
        // (format, Foundation's answer for a text and the pattern)
        let judges: [(String, (String, String) -> Bool)] = [
            ("s ==[c] %@", { $0.caseInsensitiveCompare($1) == .orderedSame }),
            ("s ==[d] %@", { $0.compare($1, options: .diacriticInsensitive) == .orderedSame }),
            ("s ==[cd] %@", { $0.compare($1, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame }),
            ("s CONTAINS[c] %@", { $0.range(of: $1, options: .caseInsensitive) != nil }),
            ("s CONTAINS[d] %@", { $0.range(of: $1, options: .diacriticInsensitive) != nil }),
            ("s CONTAINS[cd] %@", { $0.localizedStandardContains($1) }),
            ("s CONTAINS %@", { $0.range(of: $1, options: .literal) != nil }),
            ("s == %@", { Array($0.unicodeScalars) == Array($1.unicodeScalars) })
        ]
        var wrong: [String] = []
        var discriminating = 0
        for (format, judge) in judges {
            for pattern in patterns {
                let bound = try BoundPredicate(
                    try PredicateParser.parse(format, arguments: PredicateArguments([.text(pattern)])), entity: entity, context: context)
                let fragment = bound.sql(dialect: SQLiteDialect())
                let bySQL = try selectedKeys(where: fragment, in: context)
                let inMemory = Set(objects.filter { bound.matches($0) }.compactMap(\.primaryKey))
                let expected = Set(zip(texts, objects).filter { judge($0.0, pattern) }.compactMap(\.1.primaryKey))
                if !expected.isEmpty, expected.count < texts.count { discriminating += 1 }
                func names(_ keys: Set<Int64>) -> String {
                    zip(texts, objects).filter { keys.contains($0.1.primaryKey ?? -1) }.map {
                        $0.0.unicodeScalars.map { $0.escaped(asASCII: true) }.joined()
                    }
                    .sorted().joined(separator: " ")
                }
                if bySQL != expected || inMemory != expected {
                    wrong.append("\(format) '\(pattern)': Foundation [\(names(expected))], SQL [\(names(bySQL))], memory [\(names(inMemory))]")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ from Foundation:\n\(wrong.prefix(12).joined(separator: "\n"))")
        #expect(discriminating > judges.count * patterns.count / 2)
        // The fold's NFC puts marks in Unicode's order where Foundation's NFC does not
        // (U+0F81 decomposed after U+059F), as PostgreSQL's normalize() does.
        for options: ComparisonOptions in [[.caseInsensitive], [.diacriticInsensitive]] {
            let folded = PredicateFunctions.fold("x\u{59F}\u{F81}", options).unicodeScalars.map(\.value)
            #expect(folded == [0x78, 0xF71, 0xF80, 0x59F] || options == [.diacriticInsensitive], "\(folded.map { String($0, radix: 16) })")
        }
    }

    /// quarry_fold in SQL gives the Swift fold, ASCII or not.
    @Test func sqlFoldIsTheSwiftFold() throws {
        let context = try StoreOpener.open(nil)
        for text in Self.texts + Self.patterns {
            for options: ComparisonOptions in [[.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]] {
                let folded = try context.connection.read { db in
                    try String.fetchOne(db, sql: "SELECT \(PredicateFunctions.sqlFold("?", options, dialect: SQLiteDialect()))", arguments: [text])
                }
                #expect(folded == PredicateFunctions.fold(text, options), "\(text) \(options.rawValue)")
            }
        }
        // Numbers and NULL pass through the fold; a NULL text or pattern matches nothing,
        // and a number is matched as its text, as SQLite's LIKE reads it.
        let passed = try context.connection.read { db in
            try Row.fetchOne(
                db, sql: "SELECT quarry_fold(42, 1), quarry_fold(NULL, 1), quarry_string_op(NULL, 'a', 2, 1), quarry_string_op(7, '7', 2, 0)")
        }
        #expect(passed?[0] as Int64? == 42)
        #expect((passed?[1] as DatabaseValue?)?.isNull == true)
        #expect((passed?[2] as DatabaseValue?)?.isNull == true)
        #expect(passed?[3] as Int64? == 1)
    }
}
