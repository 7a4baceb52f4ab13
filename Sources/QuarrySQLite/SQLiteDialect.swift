import QuarryEngine
import QuarryModel
import QuarryStore

/// SQLite's spelling, which every store of a SQLite file speaks.
public struct SQLiteDialect: SQLDialect {
    public init() {}

    public func literal(_ value: Bool) -> String { value ? "1" : "0" }

    public func holdsInteger(_ sql: String) -> String { "typeof(\(sql)) = 'integer'" }

    public func nullSafeEqual(_ lhs: String, _ rhs: String, negated: Bool) -> String {
        "\(lhs) \(negated ? "IS NOT" : "IS") \(rhs)"
    }

    /// A prefix as a GLOB, which SQLite answers from an index on the column. The others
    /// are Quarry's function (SQLite's LIKE ignores ASCII case).
    public func stringTest(_ test: PlainStringTest, _ operand: String, _ pattern: String) -> (sql: String, arguments: [Value])? {
        guard case .prefix = test else { return nil }
        return ("\(operand) GLOB ?", [.text(Self.globEscaped(pattern) + "*")])
    }

    /// None: a GLOB's pattern must be escaped, and SQLite's LIKE ignores ASCII case.
    public func stringTest(_ test: PlainStringTest, _ operand: String, patternSQL: String) -> String? { nil }

    /// SQLite compares an integer with a real by their values, and a column declared
    /// INTEGER of a foreign file may hold reals, which a rewritten bound would misjudge.
    public var comparesIntegersWithRealsExactly: Bool { true }

    /// A decimal attribute's column is REAL (Quarry's files, Core Data's `DECIMAL`, which
    /// has numeric affinity): SQLite compares and computes it as a double.
    public var keepsDecimalsAsDoubles: Bool { true }

    public func orderTerm(_ sql: String, ascending: Bool) -> String { sql + (ascending ? " ASC" : " DESC") }

    public var runsQuarryFunctions: Bool { true }

    public func bucket(_ offset: String, last: String) -> String { "min(CAST(\(offset) AS INTEGER), \(last))" }

    /// A SQLite file's rows are known by their rowid or integer key, which its index finds,
    /// or, without a rowid, by a number made from their key (`KeyNumbers`).
    public func rowsByKey(_ columns: String, of rows: KeyedRows, count: Int) -> String {
        guard let numbered = rows.numbered else { return rows.byKeyIndex(columns, count: count) }
        return KeyNumber.rowsByNumber(columns, of: rows, keys: numbered.keys, count: count)
    }

    /// EXPLAIN QUERY PLAN's rows are id, parent, notused, detail.
    public func queryPlan(_ sql: String) -> (sql: String, detailColumn: Int) { ("EXPLAIN QUERY PLAN " + sql, 3) }

    /// The largest rowid, read from the end of the table's b-tree; NULL (read as 0) for an
    /// empty table. A table without a rowid refuses it.
    public func rowCountBound(of table: String) -> String? { "SELECT max(rowid) FROM \(table)" }

    /// SQLite runs a correlated subquery once per owner, reading every member when the
    /// members' key has no index (142 s for 3,322 planes' 336,776 flights); a sub-select
    /// it materializes once, with an index of its own, takes 0.3 s.
    public var readsMembersOnce: Bool { true }

    /// `text` as a GLOB pattern that matches only itself.
    static func globEscaped(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "*", "?", "[": out += "[\(c)]"
            default: out.append(c)
            }
        }
        return out
    }
}
