import GRDB
import QuarryEngine
import QuarryModel
import QuarryStore

/// A row SQLite refused for a UNIQUE constraint, named: SQLite's words
/// (`UNIQUE constraint failed: Item.code`) say which columns, not the value given nor the
/// row that has it already, which a person then looks for by hand.
extension SQLiteSaveStatements {
    /// `error` with the values `object`'s row gave the constraint's columns (`names` and
    /// `arguments` as the statement bound them) and the object whose row holds them
    /// (`StoreSession.namingRefusal`; a saved one read in the save's open transaction).
    /// `error` unchanged for any other refusal, or where the constraint's columns are not
    /// all among those written.
    func refusal(
        _ error: DatabaseError, of object: ManagedObject, _ storage: EntityStorage, names: [String], arguments: SQLiteArguments
    ) -> any Error {
        // The table SQLite names is the entity's own: the one it is read from, or for a
        // table without a rowid (read through a view that numbers its rows) the one written.
        guard case .constraint(let violation) = StoreError(error), violation.kind == .unique, let table = violation.table,
            table == storage.relation || storage.numberedRows?.table == "main." + quoteIdentifier(table), !violation.columns.isEmpty
        else { return error }
        let bound = arguments.databaseValues
        guard var named = session.namingRefusal(violation, of: object, names: names, values: bound.map { Value($0) }) else { return error }
        if named.heldBy == nil {
            let held = named.columns.compactMap { column in names.firstIndex(of: column).flatMap { $0 < bound.count ? bound[$0] : nil } }
            named.heldBy = try? holder(of: named.columns, held, object, storage)
        }
        return StoreError.constraint(named)
    }

    /// The object ID of the row holding `values` in `columns`: its entity's, where no
    /// other entity shares its table, so the row can only be one of its own.
    private func holder(of columns: [String], _ values: [DatabaseValue], _ object: ManagedObject, _ storage: EntityStorage) throws -> String? {
        let entity = object.entity
        guard !session.managedObjectModel.isInHierarchy(entity.name) else { return nil }
        let naming = storage.namingKey(of: entity)
        guard naming != nil || storage.numberedRows == nil else { return nil }
        // Compared with `=`, as the constraint compares: in the column's collation.
        let condition = columns.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: " AND ")
        let selected = naming.map(quoteIdentifier) ?? storage.key
        let sql = "SELECT \(selected) FROM \(storage.table) WHERE \(condition) LIMIT 1"
        guard let key = try Row.fetchOne(db, sql: sql, arguments: StatementArguments(values))?[0] as DatabaseValue? else { return nil }
        switch Value(key) {
        case .integer(let number) where naming == nil: return "\(entity.name)/\(number)"
        case .text(let text) where naming != nil: return "\(entity.name)/\(ObjectIDKey.escaped(text))"
        default: return nil
        }
    }
}
