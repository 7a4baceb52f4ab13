import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// An import into an existing table of a file Quarry did not create writes each value in
/// the format its column keeps, as a save does. The import's fast path binds Quarry's own
/// encoding (Unix seconds, 0/1), so the rows it adds are rewritten in the same
/// transaction: a temporary trigger notes their keys (nothing is added to the file), and
/// each date, boolean and UUID cell is written again as `storedValue` gives it. A column
/// whose format cannot be told refuses the import whole, naming it.
extension ForeignFileStore {
    static func keepingFormats<T>(
        of entity: EntityDescription, _ attributes: [AttributeDescription], session: StoreSession,
        in db: Database, _ insert: () throws -> T
    ) throws -> T {
        let storage = session.mapped(entity)
        guard storage.layout == .foreignTable else { return try insert() }
        // Each column's format as the rows before the import show it; a column written as
        // the import writes it (text that is no UUID, numbers) needs nothing more.
        var cache = ColumnFormats()
        var unknown: [String: Error] = [:]
        let formatted = attributes.filter { attribute in
            guard [.date, .bool, .string, .uuid, .binary].contains(attribute.type) else { return false }
            do { return try cache.format(of: entity, attribute, in: db, session: session) != .plain } catch {
                unknown[attribute.name] = error
                return true
            }
        }
        guard !formatted.isEmpty else { return try insert() }
        let (noted, trigger) = (quoteIdentifier("quarry_imported_keys"), quoteIdentifier("quarry_imported_keys_insert"))
        try db.execute(sql: "CREATE TEMP TABLE \(noted) (k PRIMARY KEY)")
        // The file's table, a row noted by its key or, without a rowid, its key's number.
        let newKey = storage.numberedRows.map { KeyNumber.sql(of: $0.keys, in: $0.owner, qualifier: "NEW") } ?? "NEW.\(storage.key)"
        let table = storage.numberedRows == nil ? "main.\(storage.table)" : storage.writtenTable
        try db.execute(sql: "CREATE TEMP TRIGGER \(trigger) AFTER INSERT ON \(table) BEGIN INSERT INTO \(noted) VALUES (\(newKey)); END")
        defer {
            try? db.execute(sql: "DROP TRIGGER IF EXISTS temp.\(trigger)")
            try? db.execute(sql: "DROP TABLE IF EXISTS temp.\(noted)")
        }
        let result = try insert()
        let columns = formatted.map { storage.column($0.name) }.joined(separator: ", ")
        let rows = try Row.fetchCursor(db, sql: "SELECT k, \(columns) FROM temp.\(noted) JOIN \(table) ON \(storage.writtenKey) = k")
        let update = try db.makeStatement(
            sql: "UPDATE \(table) SET "
                + formatted.map { "\(storage.column($0.name)) = ?" }.joined(separator: ", ") + " WHERE \(storage.writtenKey) = ?")
        var updates: [[DatabaseValue]] = []
        while let row = try rows.next() {
            var values: [DatabaseValue] = []
            var changed = false
            for (i, attribute) in formatted.enumerated() {
                let stored: DatabaseValue = row[i + 1]
                let decoded = attribute.type.decode(Value(stored))
                // A column of no one format refuses a value that needs one (not text in a
                // text column that is no UUID), as a save does.
                if let error = unknown[attribute.name], !decoded.isNull, [.date, .bool].contains(attribute.type) || uuidBytes(decoded) != nil {
                    throw error
                }
                let value = unknown[attribute.name] == nil ? try cache.stored(decoded, entity, attribute.name, in: db, session: session) : stored
                changed = changed || value != stored
                values.append(value)
            }
            if changed { updates.append(values + [row[0]]) }
        }
        for values in updates { try update.execute(arguments: StatementArguments(values)) }
        return result
    }
}
