import GRDB

/// The delete rules a foreign file's keys give (`ForeignSchema.deleteRule(onDelete:)`): a deny names
/// the key it comes from, and `ON DELETE SET DEFAULT`: when a parent row goes, its children's
/// column takes the default the file declares for it. SQLite (with `PRAGMA foreign_keys=ON`)
/// then checks the key, and refuses the delete when no remaining parent row has the
/// default: Quarry refuses it the same way, before anything changes.
struct ForeignKeyDefaults {
    let context: ObjectContext

    /// The value `column` of `entity`'s table takes by default (NULL when none is declared).
    /// Reads through `db` (inside a batch's write), else in a read of its own.
    func columnDefault(_ column: String, of entity: EntityDescription, in db: Database? = nil) throws -> Value {
        let table = context.mapped(entity).relation
        let declared: String? = try within(db) { db in
            try Row.fetchAll(db, sql: "PRAGMA main.table_info(\(quoteIdentifier(table)))")
                .first { ($0["name"] as String?) == column }?["dflt_value"]
        }
        guard let declared else { return .null }
        // SQLite takes only constant expressions as defaults (literals, CURRENT_TIME and
        // the like, or a parenthesised constant expression), so evaluating one reads nothing.
        do {
            return try within(db) { db in Value(try DatabaseValue.fetchOne(db, sql: "SELECT \(declared)") ?? .null) }
        } catch {
            throw StoreError.validation(message: "delete: the default of \(table).\(column) cannot be read: \(declared)")
        }
    }

    /// Refuses a default that names no parent row left after the delete, as SQLite's key
    /// check does: `doomed` are the rows going (by key).
    func checkDefaultParent(_ value: Value, parent: EntityDescription, matchedBy targetKey: String?,
                            child: String, column: String, doomed: Set<Int64>, in db: Database? = nil) throws {
        guard !value.isNull else { return }
        let storage = context.mapped(parent)
        let match = quoteIdentifier(targetKey ?? storage.keyColumn)
        let keys = try within(db) { db in
            try Int64.fetchAll(db, sql: "SELECT \(storage.key) FROM \(storage.table) WHERE \(match) = ?", arguments: [value.databaseValue])
        }
        let survives = keys.contains { key in
            !doomed.contains(key) && context.registeredObject(entity: parent.name, primaryKey: key)?.isDeleted != true
        }
        guard !survives else { return }
        throw StoreError.validation(message: "delete: \(child).\(column) is set to its default \(value) on delete (ON DELETE SET DEFAULT), and no \(parent.name) row has it")
    }

    /// A read through the connection already held (GRDB's calls are not reentrant), else its own.
    private func within<T>(_ db: Database?, _ body: (Database) throws -> T) throws -> T {
        guard let db else { return try context.read(body) }
        do { return try body(db) } catch let error as DatabaseError { throw StoreError(error) }
    }
}
