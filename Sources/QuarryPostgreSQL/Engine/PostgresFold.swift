import Foundation
import QuarryEngine
import QuarryStore

/// `[c]`, `[d]` and `[cd]` as PostgreSQL's own SQL, folding as Quarry folds in Swift
/// (Foundation's `folding(options:locale: nil)`, which SQLite calls as `quarry_fold`), so
/// a fetch, a count and a sort give the rows SQLite gives; nothing is installed on the
/// server. What the fold does was read off Foundation (`UnicodeFoldTables`, made by
/// scripts/fold-tables; `FoldTablesTests` checks it against every scalar):
/// - `[c]` maps each scalar on its own (full case folding: ß is ss, ς is σ). SQL lowers
///   with ICU (`und-x-icu`), fast in C, then maps what lowering leaves unfolded: ß, ς,
///   ligatures, Cherokee, and letters newer than an old server's ICU knows.
/// - `[d]` maps each precomposed letter whose base is below U+0510 (Latin, Greek,
///   Cyrillic) to that base, and drops the combining marks that follow such a letter.
///   SQL decomposes (`normalize(NFD)`) and drops every mark; text holding a scalar
///   whose decomposition differs from its fold (Hangul, Indic letters) is mapped by
///   `translate` instead, slower but the same.
/// - Marks after any other letter, or at the start, Foundation keeps or drops by rules
///   of its own (by the mark and the letter: an acute goes after a Hangul syllable, a
///   Syloti Nagri sign stays after a Warang Citi letter; a run it keeps is reordered by
///   class, a decomposable mark decomposed); no SQL here repeats them, so such text is
///   refused while the statement runs (`PostgresFold.refusal`, said in one line by the
///   store) rather than answered differently. Emoji with a variation selector or a skin
///   tone are such text.
/// ASCII text takes a shortcut: `lower` in the `C` collation, or itself.
public enum PostgresFold {
    /// `expression` folded. `expression` is evaluated once where it holds a placeholder or a
    /// subquery (a sub-select names it); a column may be read several times.
    public static func sql(_ expression: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
        guard caseInsensitive || diacriticInsensitive else { return expression }
        let simple = SQLTemplate.isPlain(expression)
        let x = simple ? "(\(expression))" : "\"fold_text\""
        let tables = Tables.shared
        // ASCII text takes the shortcut and skips the server's normalize(): it is composed
        // already and folds to ASCII. The non-ASCII fold is written once, not once per
        // branch: the planner prices every branch of a CASE, and a fold written twice
        // priced a folded count over 336,776 rows past `jit_above_cost`, whose 300 ms of
        // compiling tripled it.
        let ascii = "octet_length(\(x)) = char_length(\(x))"
        let asciiFolded = caseInsensitive ? "lower(\(x) COLLATE \"C\")" : x
        let folded: String
        if !diacriticInsensitive {
            folded = tables.caseFold("\(x)")
        } else {
            let low = caseInsensitive ? tables.lowAfterCaseFold : tables.lowAfterDiacriticFold
            let c: (String) -> String = { caseInsensitive ? tables.caseFold($0) : $0 }
            let marks = tables.markClass
            folded =
                "(CASE WHEN \(x) ~ '(^|[^\(low)\(marks)])[\(marks)]' THEN CAST(('\(refusal)' || \(x)) AS integer)::text"
                + " WHEN \(x) ~ '[\(tables.decompositionClass)]' THEN "
                + c(
                    "translate(regexp_replace(\(x), '([\(low)])[\(marks)]+', '\\1', 'g'), \(quoteLiteral(tables.diacriticFrom)), \(quoteLiteral(tables.diacriticTo)))"
                )
                + " ELSE " + c("regexp_replace(normalize(\(x), NFD), '[\(marks)]+', '', 'g')") + " END)"
        }
        // Composed (NFC), as `PredicateFunctions.fold`: canonically equivalent text folds
        // alike.
        let collated = "((CASE WHEN \(ascii) THEN \(asciiFolded) ELSE normalize(\(folded), NFC) END) COLLATE \"C\")"
        return simple ? collated : "(SELECT \(collated) FROM (SELECT \(expression) AS \"fold_text\") AS \"fold_row\")"
    }

    /// Of Unicode 11 (2018) or later: a server's older ICU may not map it.
    static func isRecent(_ u: Unicode.Scalar) -> Bool { u.properties.age.map { $0.major >= 11 } ?? true }

    /// What the SQL casts to an integer to stop a statement whose text it cannot fold; the
    /// server's "invalid input syntax" names it, with the text after it.
    public static let refusal = "quarry cannot fold: "

    /// A string literal.

    /// The tables as SQL's pieces, made once.
    package final class Tables: Sendable {
        package static let shared = Tables()

        package let caseFoldMap: [UInt32: [UInt32]]
        package let diacriticMap: [UInt32: UInt32]
        package let markSet: Set<UInt32>
        let markClass: String
        let decompositionClass: String
        let diacriticFrom: String, diacriticTo: String
        /// Letters whose following marks `[d]` drops, alone and with `[c]`.
        let lowAfterDiacriticFold: String, lowAfterCaseFold: String
        /// After ICU's lower: scalars `[c]` maps one to one, and to several.
        let afterLowerFrom: String, afterLowerTo: String
        let afterLowerMany: [(String, String)]

        private init() {
            let caseFoldMap = UnicodeFoldTables.map(UnicodeFoldTables.caseFold)
            let diacriticMap = UnicodeFoldTables.map(UnicodeFoldTables.diacriticFold).compactMapValues { $0.count == 1 ? $0[0] : nil }
            self.caseFoldMap = caseFoldMap
            self.diacriticMap = diacriticMap
            let marks = UnicodeFoldTables.ranges(UnicodeFoldTables.marks)
            let markSet = Set(marks.flatMap { Array($0) })
            self.markSet = markSet
            markClass = UnicodeFoldTables.regexClass(marks)
            decompositionClass = UnicodeFoldTables.regexClass(UnicodeFoldTables.ranges(UnicodeFoldTables.decompositionsUnlikeFold))
            let sortedDiacritics = diacriticMap.keys.sorted()
            diacriticFrom = UnicodeFoldTables.text(sortedDiacritics)
            diacriticTo = UnicodeFoldTables.text(sortedDiacritics.compactMap { diacriticMap[$0] })

            // A letter is low when the scalar [d] (and [c]) makes of it is below U+0510 and
            // it is no mark itself.
            var candidates = Set((UInt32(1)...0x50F))
            candidates.formUnion(diacriticMap.keys)
            candidates.formUnion(caseFoldMap.keys)
            var lowD: [UInt32] = []
            var lowCD: [UInt32] = []
            for scalar in candidates.sorted() where !markSet.contains(scalar) {
                let d = diacriticMap[scalar] ?? scalar
                if d < 0x510 { lowD.append(scalar) }
                if let last = (caseFoldMap[d] ?? [d]).last, last < 0x510 { lowCD.append(scalar) }
            }
            lowAfterDiacriticFold = UnicodeFoldTables.regexClass(UnicodeFoldTables.collapse(lowD))
            lowAfterCaseFold = UnicodeFoldTables.regexClass(UnicodeFoldTables.collapse(lowCD))

            // What ICU's lower leaves for [c] to map: lowercase letters that fold further
            // (ß, ς, ligatures, Cherokee), and letters of Unicode 11 and later, which an
            // older ICU may not lower.
            var oneFrom: [UInt32] = []
            var oneTo: [UInt32] = []
            var many: [(String, String)] = []
            for (scalar, folded) in caseFoldMap.sorted(by: { $0.key < $1.key }) where scalar >= 0x80 {
                guard let u = Unicode.Scalar(scalar) else { continue }
                let stable = u.properties.lowercaseMapping == String(u)
                let recent = PostgresFold.isRecent(u) || folded.contains { Unicode.Scalar($0).map(PostgresFold.isRecent) ?? false }
                guard stable || recent else { continue }
                if folded.count == 1 {
                    oneFrom.append(scalar)
                    oneTo.append(folded[0])
                } else {
                    many.append((UnicodeFoldTables.text([scalar]), UnicodeFoldTables.text(folded)))
                }
            }
            afterLowerFrom = UnicodeFoldTables.text(oneFrom)
            afterLowerTo = UnicodeFoldTables.text(oneTo)
            afterLowerMany = many
        }

        /// `[c]` of non-ASCII text: ICU's lower, then what it leaves.
        func caseFold(_ x: String) -> String {
            var sql =
                "translate(lower(\(x) COLLATE \"und-x-icu\") COLLATE \"C\", \(quoteLiteral(afterLowerFrom)), \(quoteLiteral(afterLowerTo)))"
            for (from, to) in afterLowerMany { sql = "replace(\(sql), \(quoteLiteral(from)), \(quoteLiteral(to)))" }
            return sql
        }
    }
}
