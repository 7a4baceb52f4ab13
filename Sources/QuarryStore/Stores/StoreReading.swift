import QuarryEngine
import QuarryModel

/// What a store reads: its model and where each entity's rows are, rows by key, the
/// counter of other sessions' commits, and what it adds to what a person reads (`explain`,
/// `format()`).
package protocol StoreReading: AnyObject {
    /// The entities the store holds, as read when it was opened and defined since.
    var managedObjectModel: ManagedObjectModel { get set }
    /// Where each entity's rows are in the store.
    var mapping: StoreMapping { get set }
    /// The SQL the store's database speaks. Every store states it: none is assumed.
    var dialect: any SQLDialect { get }
    /// Once the context adopted the store: what its conventions add through the context
    /// (the file's other tables as entities, a sidecar's `relate()` calls), and what the
    /// open has to say (`openingNotes`).
    func didOpen(in session: StoreSession) throws
    /// The rows of `entity` with these keys, by key, in its layout (`selection(of:)`);
    /// keys with no row are left out. Values in storage form (`Value.storedForm`).
    func rows(of entity: EntityDescription, keys: [Int64], session: StoreSession) throws -> [Int64: [Value]]
    /// A number that moves whenever another session commits (SQLite's `data_version`).
    func outsideChangeCounter(session: StoreSession) throws -> Int
    /// Why some outside commits do not move the counter, so that observers hear them only
    /// at `refresh()`, which then reloads whatever the counter says; nil when every commit
    /// moves it, as SQLite's `data_version` does.
    var unheardCommits: String? { get }
    /// The model file the store's entities were read from, when they were (a Core Data
    /// store's), for export, Swift and fetch request templates.
    var modelAsRead: CoreDataModel? { get }
    /// The format a column of another program's table is written in, declared or read
    /// from its values (`format(entity, column)`); nil where the store writes one encoding.
    func columnFormat(of entity: EntityDescription, _ attribute: AttributeDescription, session: StoreSession) throws -> String?
    /// For each entity `sql` reads whose rows the store lays out in tables of its own (a
    /// Core Data store's Z-tables), the SQL that reads them: what `explain` adds.
    func tableSQL(readBy sql: String) -> [(entity: String, sql: String)]
}

/// What most stores answer alike.
extension StoreReading {
    /// Read through the connection, 500 keys a query.
    package func rows(of entity: EntityDescription, keys: [Int64], session: StoreSession) throws -> [Int64: [Value]] {
        var rows: [Int64: [Value]] = [:]
        let storage = session.mapped(entity)
        try forEachChunk(keys) { chunk in
            let sql = dialect.rowsByKey(storage.selection(of: entity), of: storage, count: chunk.count)
            for row in try session.connection.rows(sql, arguments: chunk.map(Value.integer)) {
                let values = row.map(\.storedForm)
                rows[try values.storedInteger(at: 0, table: entity.name, column: storage.keyColumn)] = values
            }
        }
        return rows
    }
    /// Every commit moves the counter (SQLite's `data_version`).
    package var unheardCommits: String? { nil }
    package var modelAsRead: CoreDataModel? { nil }
    package func columnFormat(of entity: EntityDescription, _ attribute: AttributeDescription, session: StoreSession) throws -> String? { nil }
    package func tableSQL(readBy sql: String) -> [(entity: String, sql: String)] { [] }
}
