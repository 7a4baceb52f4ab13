import Foundation
import QuarryModel
import QuarryPostgreSQL
import QuarryPredicates
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// `[c]`, `[d]` and `[cd]` in PostgreSQL's SQL (`PostgresFold`) against Foundation's
/// fold, which SQLite and the in-memory evaluator call: the committed tables are
/// Foundation's on this toolchain, and on a real server the SQL folds every scalar and
/// random text as Swift does, or refuses the text (marks Foundation keeps), never
/// answering differently.
@Suite struct PostgresFoldTests {
    static let options: [ComparisonOptions] = [[.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]]

    static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    /// The tables as scripts/fold-tables would make them now: a toolchain whose
    /// Foundation folds differently fails here until they are made again.
    @Test func tablesAreThisToolchainsFold() throws {
        let tables = PostgresFold.Tables.shared
        var differences: [String] = []
        for v in UInt32(1)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            let text = String(Character(scalar))
            let c = Self.scalars(PredicateFunctions.foundationFold(text, [.caseInsensitive]))
            if c != (tables.caseFoldMap[v] ?? [v]) { differences.append("[c] of U+\(String(v, radix: 16))") }
            let d = Self.scalars(PredicateFunctions.foundationFold(text, [.diacriticInsensitive]))
            if d != [tables.diacriticMap[v] ?? v] { differences.append("[d] of U+\(String(v, radix: 16))") }
            let removed = Self.scalars(PredicateFunctions.foundationFold("a" + text, [.diacriticInsensitive])) == [0x61]
            if removed != tables.markSet.contains(v) { differences.append("mark U+\(String(v, radix: 16))") }
            if differences.count > 20 { break }
        }
        #expect(differences.isEmpty, "scripts/fold-tables makes other tables: \(differences.prefix(20))")
        // \d, \w, \s as MATCHES (ICU) reads them, against the classes PortableRegex says.
        for (letter, table) in [("d", UnicodeFoldTables.regexDigit), ("w", UnicodeFoldTables.regexWord), ("s", UnicodeFoldTables.regexSpace)] {
            let held = Set(UnicodeFoldTables.ranges(table).flatMap { Array($0) })
            let regex = try #require(try? NSRegularExpression(pattern: "\\" + letter))
            var wrong: [UInt32] = []
            for v in UInt32(1)...0x10FFFF {
                guard let scalar = Unicode.Scalar(v) else { continue }
                let text = String(String.UnicodeScalarView([scalar]))
                let range = NSRange(text.startIndex..., in: text)
                let matched = regex.firstMatch(in: text, options: [.anchored], range: range).map { $0.range == range } ?? false
                if matched != held.contains(v) { wrong.append(v) }
                if wrong.count > 10 { break }
            }
            #expect(wrong.isEmpty, "\\\(letter): \(wrong.map { String($0, radix: 16) })")
        }
    }

    /// Text for the tests: every scalar the tables name, marks after Latin, Greek,
    /// Cyrillic and other letters, Hangul, emoji, ASCII.
    static func randomTexts(count: Int, seed: UInt64) -> [String] {
        let tables = PostgresFold.Tables.shared
        // Sorted: a dictionary's and a set's order changes from process to process, and the
        // seed must give the same texts every run.
        var pool = tables.caseFoldMap.keys.sorted() + tables.diacriticMap.keys.sorted()
        let marks = tables.markSet.sorted()
        let plain: [UInt32] = [
            0x41, 0x61, 0x5A, 0x7A, 0x20, 0x31, 0x27, 0x5C, 0x25, 0x1100, 0x1161, 0xAC00, 0xD55C, 0x200D, 0x5D0, 0x915,
            0x958, 0x4E00, 0x1F600, 0xFE0F, 0x1F3FB, 0x10400, 0x3A3, 0x3C2, 0xDF, 0x130, 0x131, 0x23A, 0x23E, 0x1E9E, 0xA
        ]
        for _ in 0..<20 { pool += plain }
        var rng = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            var text = String.UnicodeScalarView()
            for _ in 0..<rng.int(1...7) {
                let v = rng.chance(0.3) ? rng.pick(marks) : rng.pick(pool)
                if let scalar = Unicode.Scalar(v) { text.append(scalar) }
            }
            return String(text)
        }
    }

    /// `texts` as the rows of a new table `texts`, keyed by their place.
    static func store(_ texts: [String], on postgres: PostgresConnection) throws {
        try postgres.execute("DROP TABLE IF EXISTS texts")
        try postgres.execute(#"CREATE TABLE texts (k integer PRIMARY KEY, s text COLLATE "C")"#)
        for start in stride(from: 0, to: texts.count, by: 500) {
            let chunk = Array(texts[start..<min(start + 500, texts.count)])
            let values = chunk.indices.map { "($\(2 * $0 + 1)::integer, $\(2 * $0 + 2)::text)" }.joined(separator: ", ")
            try postgres.execute(
                "INSERT INTO texts VALUES \(values)", chunk.enumerated().flatMap { [Value.integer(Int64(start + $0.offset)), .text($0.element)] })
        }
    }

    /// Runs the fold of each text on the server, inside a function of the test's own
    /// database that answers REFUSED where the SQL refuses: the folded text per text.
    static func serverFolds(_ texts: [String], _ options: ComparisonOptions, on postgres: PostgresConnection) throws -> [String?] {
        let name = "fold_\(options.rawValue)"
        let body = PostgresFold.sql(
            "t", caseInsensitive: options.contains(.caseInsensitive), diacriticInsensitive: options.contains(.diacriticInsensitive))
        try postgres.execute(
            """
            CREATE OR REPLACE FUNCTION \(name)(t text) RETURNS text LANGUAGE plpgsql AS $fold$
            BEGIN RETURN \(body); EXCEPTION WHEN invalid_text_representation THEN RETURN 'REFUSED:' || SQLERRM; END $fold$
            """)
        try Self.store(texts, on: postgres)
        var out = [String?](repeating: nil, count: texts.count)
        for row in try postgres.execute("SELECT k, \(name)(s) FROM texts").rows {
            guard case .integer(let k)? = row.first, case .text(let folded)? = row.last else { continue }
            out[Int(k)] = folded
        }
        return out
    }

    /// Whether `text` holds a combining mark of Unicode 15 or later, which PostgreSQL 15's
    /// normalize() (Unicode 14) does not order as Swift's NFC does.
    static func holdsMarkNewerThanUnicode14(_ text: String) -> Bool {
        text.unicodeScalars.contains { u in
            (u.properties.age.map { $0.major >= 15 } ?? true) && u.properties.canonicalCombiningClass != .notReordered
        }
    }

    @Test func serverFoldsEveryScalarAndRandomTextAsSwift() throws {
        let postgres = try PostgresConnection(url: try PostgresServer.database("fold"))
        let tables = PostgresFold.Tables.shared
        // Every scalar the tables name or that lowering might touch, alone, then random text.
        var singles = Set(tables.caseFoldMap.keys).union(tables.diacriticMap.keys).union(tables.markSet)
        for v in UInt32(1)...0x3000 { singles.insert(v) }
        for v in UInt32(0x1E900)...0x1E95F { singles.insert(v) }
        let texts = singles.sorted().compactMap { Unicode.Scalar($0).map { String(Character($0)) } } + Self.randomTexts(count: 4000, seed: 77)
        for options in Self.options {
            let folded = try Self.serverFolds(texts, options, on: postgres)
            var wrong: [String] = []
            var refused = 0
            var refusedWithoutMarks: [String] = []
            var compared = 0
            var newerMarks: [String] = []
            for (text, got) in zip(texts, folded) {
                guard let got else {
                    wrong.append("\(Self.scalars(text)): NULL")
                    continue
                }
                if got.hasPrefix("REFUSED:") {
                    refused += 1
                    #expect(Array(got.utf8).firstRange(of: Array(PostgresFold.refusal.utf8)) != nil, "\(got)")
                    if !text.unicodeScalars.contains(where: { tables.markSet.contains($0.value) }) {
                        refusedWithoutMarks.append("\(Self.scalars(text))")
                    }
                    continue
                }
                let expected = PredicateFunctions.fold(text, options)
                compared += 1
                // PostgreSQL 15's normalize() has Unicode 14's tables: marks newer than
                // that it does not reorder as Swift's NFC does (docs/postgresql.md). Only
                // such text may fold otherwise, and it is listed when it does.
                if Array(got.utf8) != Array(expected.utf8), Self.holdsMarkNewerThanUnicode14(text) {
                    newerMarks.append("\(Self.scalars(text).map { String($0, radix: 16) })")
                } else if Array(got.utf8) != Array(expected.utf8) {
                    wrong.append(
                        "\(Self.scalars(text).map { String($0, radix: 16) }) → \(Self.scalars(got).map { String($0, radix: 16) }), Swift \(Self.scalars(expected).map { String($0, radix: 16) })"
                    )
                }
            }
            #expect(wrong.isEmpty, "\(options): \(wrong.count) of \(texts.count) folded otherwise: \(wrong.prefix(12))")
            #expect(refusedWithoutMarks.isEmpty, "\(options): refused text without marks: \(refusedWithoutMarks.prefix(12))")
            if !newerMarks.isEmpty { print("PostgresFoldTests: \(options): folded otherwise, marks newer than Unicode 14: \(newerMarks.prefix(5))") }
            #expect(newerMarks.count * 200 < texts.count, "\(options): \(newerMarks.count) texts with marks newer than Unicode 14 folded otherwise")
            // Refusal is for marks Foundation keeps: text with options [c] never, and most
            // random text with marks still folds.
            if options == [.caseInsensitive] { #expect(refused == 0) } else { #expect(refused < texts.count / 3, "\(refused) refused") }
            #expect(compared + refused == texts.count && compared > texts.count / 2)
        }
    }

    /// The fold is written once: the planner prices every branch of a CASE, and a fold
    /// repeated in the NFC step's branches priced a folded count over the flights past
    /// `jit_above_cost`, whose compiling tripled bench line P5.
    @Test func theFoldIsWrittenOnce() {
        for (c, d) in [(true, false), (false, true), (true, true)] {
            let sql = PostgresFold.sql("\"t\".\"s\"", caseInsensitive: c, diacriticInsensitive: d)
            let options = "[\(c ? "c" : "")\(d ? "d" : "")]"
            #expect(sql.components(separatedBy: "octet_length").count - 1 == 1, "\(options): the ASCII test is written more than once")
            #expect(sql.components(separatedBy: "NFC").count - 1 == 1)
            #expect(sql.components(separatedBy: PostgresFold.refusal).count - 1 == (d ? 1 : 0))
        }
    }

    /// `lowercase:` and `uppercase:` (`PostgresCaseMapping`) map every scalar, and random
    /// text with final sigmas, as Swift's `lowercased()` and `uppercased()` do.
    @Test func caseMappingIsSwifts() throws {
        let postgres = try PostgresConnection(url: try PostgresServer.database("casemap"))
        var singles: [String] = []
        for v in UInt32(1)...0x1FFFF {
            guard let u = Unicode.Scalar(v), u.properties.changesWhenCaseMapped || v < 0x3000 else { continue }
            singles.append(String(Character(u)))
        }
        let texts = singles + Self.randomTexts(count: 2000, seed: 5) + ["ΣΑΣ ΑΣ Σ", "ὈΔΥΣΣΕΎΣ", "İstanbul", "ß ﬁ ǰ", "Ꭰꭰ"]
        try Self.store(texts, on: postgres)
        for lower in [true, false] {
            var wrong: [String] = []
            var compared = 0
            for row in try postgres.execute("SELECT k, \(PostgresCaseMapping.sql("s", lower: lower)) FROM texts").rows {
                guard case .integer(let k)? = row.first, case .text(let got)? = row.last else { continue }
                let text = texts[Int(k)]
                let expected = lower ? text.lowercased() : text.uppercased()
                compared += 1
                if Array(got.utf8) != Array(expected.utf8) {
                    wrong.append(
                        "\(Self.scalars(text).map { String($0, radix: 16) }) → \(Self.scalars(got).map { String($0, radix: 16) }), Swift \(Self.scalars(expected).map { String($0, radix: 16) })"
                    )
                }
            }
            #expect(compared == texts.count)
            #expect(wrong.isEmpty, "\(lower ? "lowercase" : "uppercase"): \(wrong.count) differ: \(wrong.prefix(12))")
        }
    }

    /// Text people write, marks after Latin letters (NFD, as macOS file names are) included,
    /// is never refused.
    @Test func decomposedLatinTextFolds() throws {
        let postgres = try PostgresConnection(url: try PostgresServer.database("foldnfd"))
        let words = [
            "Café", "naïve", "Ångström", "Straße", "ΣΊΣΥΦΟΣ", "Ελληνικά", "Ёлка", "Dvořák", "Łódź", "İstanbul", "ǅemal", "ﬁnal",
            "한국어", "日本語", "Ⱦ", "résumé", "ǰ", "ẞ", "ᾈ", "Ꭰꭰ", "🙂", "Ω", "K"
        ]
        let texts = words + words.map { $0.decomposedStringWithCanonicalMapping } + words.map { $0.uppercased() }
        for options in Self.options {
            let folded = try Self.serverFolds(texts, options, on: postgres)
            for (text, got) in zip(texts, folded) {
                #expect(got.map { Array($0.utf8) } == Array(PredicateFunctions.fold(text, options).utf8), "\(options) \(text): \(got ?? "NULL")")
            }
        }
    }
}
