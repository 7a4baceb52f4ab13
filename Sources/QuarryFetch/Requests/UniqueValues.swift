import QuarryEngine
import QuarryPredicates
import QuarryStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whether a column matched by value holds each value once, looked up in the data before
/// a request's SQL is written: then a join on that column (a `relate`d link) finds at most
/// one row and needs no guard against several (see `ToOneJoins`). The compiler is given
/// the answers as `ColumnFacts`; it never reads the store itself.
enum UniqueValues {
    /// The tables whose rows are counted at most; past it the check would cost more than
    /// the join it saves, so the join keeps its guard.
    static let checkLimit: Int64 = 100_000

    /// `joins.facts`, with the questions it has not answered yet looked up in the data.
    static func facts(answering joins: ToOneJoins, in context: ObjectContext) -> ColumnFacts {
        var facts = joins.facts
        for column in joins.questions where facts.holdsEachValueOnce(column) == nil {
            facts.record(column, holdsEachValueOnce: holdsEachValueOnce(column, in: context))
        }
        return facts
    }

    /// True when no value appears twice in the column, as the table stands. Two counts,
    /// served by the index that `relate()` makes; only for tables of up to `checkLimit`
    /// rows. Reads only.
    ///
    /// Any failure means "not known", never an error: the answer only chooses between two
    /// statements that give the same rows, and the one kept (with the guard) is right for
    /// any data. A table without a rowid (a foreign file's WITHOUT ROWID table) fails
    /// SQLite's bound (`SQLReads.rowCountBound`) this way, and the fetch itself then
    /// reports whatever else is wrong.
    static func holdsEachValueOnce(_ column: ValueMatchedColumn, in context: ObjectContext) -> Bool {
        let storage = context.mapped(column.entity)
        guard !storage.isView else { return false }
        let table = storage.table
        let quoted = storage.column(column.column)
        do {
            // Integers, read as keys: an empty table's bound is NULL, read as 0, and its
            // count comparison is then true, as "no value twice" is. A dialect without a
            // bound leaves it not known.
            guard let bound = context.sqlDialect.rowCountBound(of: table) else { return false }
            guard let size = try context.connection.readKeys(bound, arguments: []).first else { return true }
            guard size <= checkLimit else { return false }
            if storage.layout == .quarry, storage.columnCollations.isEmpty, let unique = try neighboursDiffer(quoted, in: table, context) {
                return unique
            }
            // As many distinct values as values. Both counts walk the index in order with no
            // aggregate per value: 40% less than GROUP BY ... HAVING count(*) > 1, the cost
            // of a one-question run that goes through a `relate`d link.
            return try context.connection.readKeys(
                """
                SELECT (SELECT count(*) FROM \(table) WHERE \(quoted) IS NOT NULL)
                     = (SELECT count(*) FROM (SELECT DISTINCT \(quoted) FROM \(table) WHERE \(quoted) IS NOT NULL))
                """, arguments: []
            ).first == 1
        } catch {
            return false
        }
    }

    /// Whether no value of a column of Quarry's own table (no COLLATE: BINARY, where equal
    /// texts are equal bytes, which the column's order puts side by side) has the bytes of
    /// the one before it, read in that order from the index `relate()` makes; nil (ask
    /// SQLite) at the first value that is not text, which SQLite compares by other rules.
    /// SQLite's DISTINCT copies every value it passes into memory of its own: the whole
    /// check of 3,322 planes is 3.3M instructions this way against 4.7M, most of it now
    /// SQLite stepping the index. The value before is kept in a buffer of its own, compared
    /// by its length and then `memcmp`, and copied over: an array emptied, appended to and
    /// compared element by element made Swift's side 580 instructions a row, this 330.
    private static func neighboursDiffer(_ quoted: String, in table: String, _ context: ObjectContext) throws -> Bool? {
        struct Answered: Error {}
        var capacity = 64
        var previous = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        defer { previous.deallocate() }
        // The length of the value before; -1 before the first.
        var length = -1
        var answer: Bool? = true
        do {
            try context.connection.forEachRow("SELECT \(quoted) FROM \(table) WHERE \(quoted) IS NOT NULL ORDER BY \(quoted)") { row in
                guard row.statement.type(0) == .text else {
                    answer = nil
                    throw Answered()
                }
                let bytes = row.statement.text(0)
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    if length == 0 {
                        answer = false
                        throw Answered()
                    }
                    length = 0
                    return
                }
                if bytes.count == length, memcmp(previous, start, length) == 0 {
                    answer = false
                    throw Answered()
                }
                if bytes.count > capacity {
                    previous.deallocate()
                    capacity = bytes.count
                    previous = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
                }
                previous.copyMemory(from: start, byteCount: bytes.count)
                length = bytes.count
            }
        } catch is Answered {}
        return answer
    }
}
