import QuarryEngine
import QuarryModel
import QuarryStore

/// PostgreSQL's spelling of what the predicate compiler writes (`SQLDialect`), and its
/// numbered placeholders. `[c]` and `[d]` fold in SQL (`PostgresFold`). What it does not
/// say yet (docs/postgresql.md): Quarry's other functions (`quarry_string_op`,
/// `quarry_arith`, `quarry_fn`: MATCHES beyond the portable subset or with `[c]`/`[d]`,
/// LIKE against a key path, arithmetic and functions). Integers compared
/// with reals stay exact: constants as integer bounds (`IntegerBounds`), columns through
/// `exactComparison`.
public struct PostgreSQLDialect: SQLDialect {
    /// Whether `[c]`, `[d]` and the case functions are said in SQL: they need a UTF8
    /// database (the fold's SQL holds scalars past Latin-1, and reads characters as
    /// code points) with ICU's root collation (`und-x-icu`); elsewhere they are refused
    /// by name (`PostgresConnection.missingFunction`).
    public let foldsText: Bool

    public init(foldsText: Bool = true) { self.foldsText = foldsText }

    // Booleans, nil-safe equality and the place of nil in an order are standard SQL's
    // (`SQLComparisons`' defaults): `TRUE`, `IS NOT DISTINCT FROM`, and `NULLS FIRST`
    // said explicitly, since PostgreSQL sorts nil last when ascending.

    /// Each compares code points whatever the collation: `starts_with`; the last
    /// `char_length(pattern)` characters (equal means equal bytes in a deterministic
    /// collation); `strpos` (1 for an empty pattern, as CONTAINS "" holds); LIKE, which
    /// PostgreSQL matches case-sensitively, with `\` as its escape; `~`, whose advanced
    /// regular expressions include POSIX's extended ones.
    public func stringTest(_ test: PlainStringTest, _ operand: String, _ pattern: String) -> (sql: String, arguments: [Value])? {
        switch test {
        case .prefix: return ("starts_with(\(operand), ?)", [.text(pattern)])
        case .suffix: return ("right(\(operand), char_length(?)) = ?", [.text(pattern), .text(pattern)])
        case .substring: return ("strpos(\(operand), ?) > 0", [.text(pattern)])
        case .like: return ("\(operand) LIKE ? ESCAPE '\\'", [.text(pattern)])
        case .regex: return ("\(operand) ~ ?", [.text(pattern)])
        }
    }

    /// The same functions with the pattern as SQL; LIKE's pattern would need translating.
    public func stringTest(_ test: PlainStringTest, _ operand: String, patternSQL p: String) -> String? {
        switch test {
        case .prefix: return "starts_with(\(operand), \(p))"
        case .suffix: return "right(\(operand), char_length(\(p))) = \(p)"
        case .substring: return "strpos(\(operand), \(p)) > 0"
        case .like, .regex: return nil
        }
    }

    // No `comparesIntegersWithRealsExactly`: PostgreSQL gives a parameter its column's
    // type (a real against `bigint` is an error) and compares `bigint` with `float8` as
    // floats. No `keepsDecimalsAsDoubles`: `numeric` keeps every digit, and Quarry's
    // decimals compute as it does.

    /// The integer as `float8` gives the answer whenever the two differ (the nearest float
    /// to n is below x only if n is). When they are equal, x is a whole number: compared
    /// as `bigint`, or as `numeric` for 2^63, which no `bigint` holds. Nil first: the last
    /// branch's cast must only meet an x the integer equals as a float.
    public func exactComparison(integer: String, _ op: String, real: String) -> String {
        // Typed, for a constant: a bare parameter would take the other side's type.
        let n = "((\(integer))::bigint)"
        let x = "((\(real))::float8)"
        return "(CASE WHEN \(n) IS NULL OR \(x) IS NULL THEN NULL::boolean WHEN \(n)::float8 <> \(x) THEN \(n)::float8 \(op) \(x) "
            + "WHEN \(x) >= 9223372036854775808.0 THEN \(n)::numeric \(op) 9223372036854775808 "
            + "ELSE \(n) \(op) \(x)::bigint END)"
    }

    /// The `C` collation compares UTF-8 bytes, as SQLite's BINARY does; a database's own
    /// (`en_US.UTF-8`, ...) would sort by language.
    public func binaryText(_ sql: String) -> String { "(\(sql)) COLLATE \"C\"" }

    // `runsQuarryFunctions` false: what they do is said in SQL where it can be
    // (`PostgresFold`).

    public func fold(_ sql: String, caseInsensitive: Bool, diacriticInsensitive: Bool, digitRuns: Bool) -> String? {
        guard foldsText else { return nil }
        let folded = PostgresFold.sql(sql, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
        return digitRuns ? standardOrderKey(folded) : folded
    }

    /// `timestamptz` as its epoch seconds, `boolean` as an integer (PostgreSQL has no
    /// `min(boolean)`), text in the `C` collation.
    public func statistic(_ sql: String, _ type: AttributeType) -> String {
        switch type {
        case .date: return "extract(epoch from \(sql))::float8"
        case .bool: return "(\(sql))::int"
        case .string: return binaryText(sql)
        default: return sql
        }
    }

    /// `CAST(x AS bigint)` rounds in PostgreSQL; `trunc` takes the integer part, as
    /// SQLite's CAST does.
    public func bucket(_ offset: String, last: String) -> String { "LEAST(trunc(\(offset))::bigint, \(last))" }

    public func real(_ sql: String) -> String { "(\(sql))::float8" }

    /// Past Int64 the cast stops the statement ("bigint out of range"), as SQLite's sum
    /// stops with "integer overflow".
    public func integer(_ sql: String) -> String { "(\(sql))::bigint" }

    // `holdsInteger`: a view's key column is typed an integer (`PostgresStore+Views`).

    /// EXPLAIN's one column, a line of the plan a row.
    public func queryPlan(_ sql: String) -> (sql: String, detailColumn: Int) { ("EXPLAIN " + sql, 0) }

    /// `sql` with its `?` placeholders numbered `$1`, `$2`, ... in order, as PostgreSQL
    /// takes them; a `?` inside a string literal (`'...'`, `E'...'` with its backslash
    /// escapes, `$tag$...$tag$`), a quoted identifier or a comment stays.
    public static func numbered(_ sql: String) -> String { numbering(sql).sql }

    /// The same, with how many placeholders there are. Read as bytes, as PostgreSQL's
    /// lexer reads them (every byte above 127 a letter of a word): a save runs it for each
    /// statement, and reading the text as characters was a tenth of a large save's time.
    static func numbering(_ sql: String) -> (sql: String, count: Int) {
        let text = Array(sql.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 8)
        var n = 0
        var i = 0
        /// Copies text[i...] up to and including `end` (or to the end of the text).
        func copy(through end: Int) {
            let stop = min(end, text.count - 1)
            if i <= stop { out.append(contentsOf: text[i...stop]) }
            i = stop + 1
        }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        func isWord(_ c: UInt8) -> Bool {
            c >= 0x80 || isDigit(c) || c == UInt8(ascii: "_") || (c | 0x20 >= UInt8(ascii: "a") && c | 0x20 <= UInt8(ascii: "z"))
        }
        while i < text.count {
            let c = text[i]
            let next: UInt8? = i + 1 < text.count ? text[i + 1] : nil
            switch c {
            case UInt8(ascii: "'"):
                // An escape string (E'...') takes backslash escapes; '' is a quote either way.
                let escapes = i > 0 && (text[i - 1] | 0x20 == UInt8(ascii: "e")) && (i < 2 || !isWord(text[i - 2]))
                var j = i + 1
                while j < text.count {
                    if escapes, text[j] == UInt8(ascii: "\\") {
                        j += 2
                        continue
                    }
                    if text[j] == UInt8(ascii: "'") {
                        if j + 1 < text.count, text[j + 1] == UInt8(ascii: "'") {
                            j += 2
                            continue
                        }
                        break
                    }
                    j += 1
                }
                copy(through: j)
            case UInt8(ascii: "\""):
                var j = i + 1
                while j < text.count, text[j] != UInt8(ascii: "\"") { j += 1 }
                copy(through: j)
            case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                var j = i
                while j < text.count, text[j] != UInt8(ascii: "\n") { j += 1 }
                copy(through: j)
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                var j = i + 2
                while j + 1 < text.count, !(text[j] == UInt8(ascii: "*") && text[j + 1] == UInt8(ascii: "/")) { j += 1 }
                copy(through: j + 1)
            case UInt8(ascii: "$") where i == 0 || !isWord(text[i - 1]):
                // A dollar quote: $$ or $tag$ (a tag does not start with a digit), to the same again.
                var j = i + 1
                while j < text.count, isWord(text[j]), !(j == i + 1 && isDigit(text[j])) { j += 1 }
                guard j < text.count, text[j] == UInt8(ascii: "$") else {
                    out.append(c)
                    i += 1
                    continue
                }
                let tag = text[i...j]
                var k = j + 1
                while k < text.count, !(text[k] == UInt8(ascii: "$") && k + tag.count <= text.count && text[k..<(k + tag.count)].elementsEqual(tag)) {
                    k += 1
                }
                copy(through: k + tag.count - 1)
            case UInt8(ascii: "?"):
                n += 1
                out.append(contentsOf: "$\(n)".utf8)
                i += 1
            default:
                out.append(c)
                i += 1
            }
        }
        return (String(decoding: out, as: UTF8.self), n)
    }
}
