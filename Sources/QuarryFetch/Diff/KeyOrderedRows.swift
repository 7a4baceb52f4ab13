import QuarryEngine
import QuarryModel
import QuarryStore

/// One side of a diff: an entity's rows read in key order, a chunk at a time, each chunk
/// the next `chunk` rows from the last key read on (`WHERE key >= ? ORDER BY key LIMIT
/// n`, the row read already dropped), so memory stays at one chunk whatever the table
/// holds, and the store's own index orders them. From the last key, not after it: a key
/// two rows hold, one the last of a chunk and one the first of the next, is seen twice,
/// as within a chunk. The same on every engine: two sides on different engines merge alike.
///
/// Each row is the key's values (the first `keyCount`), then the compared columns.
struct KeyOrderedRows {
    let context: ObjectContext
    let entity: String
    let keyCount: Int
    let fix: String
    /// The same key twice is skipped (a link another program wrote twice is one link),
    /// not refused.
    let repeats: Bool
    private let sql: String
    private let first: String
    /// Bound to the FROM clause's placeholders, before the last key's.
    private let arguments: [Value]
    private let after: String
    private let fromLast: String
    private let chunk: Int
    private var rows: [[Value]] = []
    private var index = 0
    private var last: [Value]?
    private var done = false

    /// `columns`: SQL expressions of the rows' relation `from` (a table, or a FROM clause
    /// with its joins and WHERE, `arguments` bound to it), the key's first; `textKeys`:
    /// which key columns hold text, ordered by their bytes whatever their collation.
    init(
        context: ObjectContext, entity: String, from: String, arguments: [Value] = [], columns: [String], keyCount: Int,
        textKeys: [Bool], fix: String, repeats: Bool = false, chunk: Int = 2048
    ) {
        self.context = context
        self.entity = entity
        self.keyCount = keyCount
        self.fix = fix
        self.repeats = repeats
        self.chunk = chunk
        self.arguments = arguments
        let dialect = context.store.dialect
        // Named columns in a subquery, so keys and values read alike whatever each
        // column's expression is (a cast, a date kept in other units); engines flatten it.
        let inner = columns.enumerated().map { "\($1) AS \(quoteIdentifier("c\($0)"))" }.joined(separator: ", ")
        let keys = (0..<keyCount).map { i -> String in
            let column = quoteIdentifier("c\(i)")
            return textKeys[i] ? dialect.binaryText(column) : column
        }
        sql = "SELECT * FROM (SELECT \(inner) FROM \(from)) AS diff_rows"
        let order = " ORDER BY " + keys.joined(separator: ", ") + " LIMIT \(chunk)"
        let placeholders = Array(repeating: "?", count: keyCount).joined(separator: ", ")
        let key = keyCount == 1 ? keys[0] : "(\(keys.joined(separator: ", ")))"
        let value = keyCount == 1 ? "?" : "(\(placeholders))"
        after = " WHERE \(key) > \(value)\(order)"
        fromLast = " WHERE \(key) >= \(value)\(order)"
        first = order
    }

    /// The next row, or nil after the last. A key holding NULL, the same key twice, or keys
    /// out of byte order are no identity: refused naming the entity.
    mutating func next() throws -> [Value]? {
        while true {
            guard let row = try step() else { return nil }
            let order = last.map { DiffValues.compare($0[...], row[0..<keyCount]) } ?? -1
            // The merge believes the store's order only where it is Swift's: a text key
            // under another collation (NOCASE) comes in another order, refused rather than
            // reported as objects inserted and deleted.
            if order > 0 {
                throw DiffError.ambiguousIdentity(
                    entity: entity, reason: "its key's text is sorted by a collation other than its bytes (NOCASE, a language's)", fix: fix)
            }
            if order == 0 {
                guard repeats else {
                    throw DiffError.ambiguousIdentity(
                        entity: entity, reason: "the key \(row[0..<keyCount].map(DiffValues.text).joined(separator: ", ")) belongs to two objects",
                        fix: fix)
                }
                continue
            }
            last = Array(row[0..<keyCount])
            return row
        }
    }

    private mutating func step() throws -> [Value]? {
        if index == rows.count {
            guard !done else { return nil }
            rows = try context.connection.rows(last == nil ? sql + first : sql + fromLast, arguments: arguments + (last ?? []))
            index = 0
            if let last, let key = rows.first?[0..<keyCount], DiffValues.compare(last[...], key) == 0 {
                // A chunk of one key alone (a link written thousands of times) would be read
                // again and again: what follows it is read instead, its repeats being repeats.
                if repeats, rows.count == chunk, let end = rows.last?[0..<keyCount], DiffValues.compare(last[...], end) == 0 {
                    rows = try context.connection.rows(sql + after, arguments: arguments + last)
                } else {
                    index = 1 // The row read last, already returned.
                }
            }
            if rows.count < chunk { done = true }
            guard index < rows.count else { return nil }
        }
        let row = rows[index]
        index += 1
        let key = row[0..<keyCount]
        if key.contains(.null) {
            throw DiffError.ambiguousIdentity(entity: entity, reason: "a key holds nil", fix: fix)
        }
        return row
    }
}
