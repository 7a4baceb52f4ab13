import GRDB
import QuarryModel
import QuarryStore

/// Optimistic locking folded into a save's UPDATEs: a changed object's UPDATE writes its
/// row only where the row still holds every value the object read (`"v" IS ?` for each
/// column an object reads, its key aside), so the UPDATE itself compares the whole row,
/// as the conflict check does (issue 84, decision 3). Reading every changed row back
/// before writing it was a fifth of a save of 20,000 changed objects.
///
/// When an UPDATE changes no row (the row holds something else, or is gone) or anything
/// else fails, nothing of the attempt stays (it runs in a savepoint) and the save is
/// written again the way it always was: every row read and compared first
/// (`SQLiteSaveWriter.settleConflicts`), which settles or names a conflict as it always
/// has, with the same words. Only a row whose value SQL's `IS` finds equal exactly when
/// the objects' comparison does is compared so:
///
/// - the row as the object read it, in storage form, still says every value the save
///   expects (`ManagedObject.rowAsRead`), and the object's entity is described as when it
///   was read;
/// - an entity of Quarry's own tables, at the root of its hierarchy (its table, not a view,
///   whose INSTEAD OF trigger SQLite counts no change for), each column read bare, with no
///   collation but BINARY;
/// - no binary attribute: a BLOB column converts nothing, so an integer and the real
///   number equal to it may both be stored there, which `IS` finds equal and the
///   objects' comparison does not. Every other column Quarry makes has an affinity that
///   stores one number one way (INTEGER, REAL) or as text (TEXT).
struct RowChangedSinceRead: Error {}

extension SQLiteSaveStatements {
    /// The condition added to the key's for an UPDATE that compares `saved`'s row: each
    /// column `SaveConflict` compares, as the row was read, after the key.
    static func rowAsReadCondition(of saved: SavedEntities.Entity) -> String {
        let entity = saved.current
        return SQLiteSaveWriter.comparedColumns(of: entity).map { " AND \(saved.storage.selected($0, of: entity)) IS ?" }.joined()
    }

    /// The values of `object`'s row as read, after its key, for `rowAsReadCondition`.
    func appendRowAsRead(of object: ManagedObject, to values: inout SQLiteArguments) throws {
        guard let row = object.rowAsRead, row.count == object.entity.rowIndex.count + 1 else { throw RowChangedSinceRead() }
        for value in row.dropFirst() { values.append(value) }
    }
}

extension SQLiteSaveWriter {
    /// The objects `request` updates whose UPDATE can compare their rows
    /// (`SQLiteSaveStatements+ComparedRows`): each has a pending value, so that an UPDATE
    /// runs for it.
    func rowsComparedByUpdates(_ request: SaveChangesRequest) -> Set<ObjectIdentifier> {
        var entities = session.savedEntities()
        var comparable: [ObjectIdentifier: Bool] = [:]
        // Made at its size, and the last entity's answer kept: a save's objects come in
        // runs of one entity (growing the set and looking the entity up for each of 20,000
        // objects was a third of this walk).
        var compared: Set<ObjectIdentifier> = []
        compared.reserveCapacity(request.updates.count)
        var last: (id: ObjectIdentifier, compares: Bool)?
        for object in request.updates where !object.pending.isEmpty {
            let saved = entities.of(object)
            let id = ObjectIdentifier(saved)
            let entityCompares: Bool
            if let last, last.id == id {
                entityCompares = last.compares
            } else {
                entityCompares = comparable[id] ?? Self.comparesRows(of: saved)
                comparable[id] = entityCompares
                last = (id, entityCompares)
            }
            guard entityCompares, let row = object.rowAsRead, row.count == saved.current.rowIndex.count + 1, object.entity == saved.current
            else { continue }
            compared.insert(ObjectIdentifier(object))
        }
        return compared
    }

    /// Whether `saved`'s UPDATEs can compare its rows (see `SQLiteSaveStatements+ComparedRows`).
    static func comparesRows(of saved: SavedEntities.Entity) -> Bool {
        let entity = saved.current
        let storage = saved.storage
        guard storage.layout == .quarry, entity.parent == nil, storage.numberedRows == nil, storage.schema == nil,
            storage.columnCollations.isEmpty, !entity.attributes.contains(where: { $0.type == .binary })
        else { return false }
        return comparedColumns(of: entity).allSatisfy { storage.selected($0, of: entity) == quoteIdentifier($0) }
    }

    /// The columns of a row an object reads after its key, in its order
    /// (`EntityStorage.selection(of:)`), each compared by `SaveConflict.of`.
    static func comparedColumns(of entity: EntityDescription) -> [String] {
        entity.attributeNames + entity.toOneRelationships.map(\.keyColumn)
    }

    /// Writes the rows of `result`'s request with the UPDATEs of `compared` comparing
    /// them, in a savepoint; false, with nothing of it written and `result` and `work` as
    /// they were, when any UPDATE found its row changed or anything else failed.
    func writeComparing(_ compared: Set<ObjectIdentifier>, _ result: inout SaveChangesResult, _ work: inout StoreSaveWork, in db: Database)
        throws -> Bool
    {
        var attempt = result
        let rows = SQLiteSaveStatements(session: session, store: store, db: db, work: work, comparing: compared)
        var writer = SaveRowsWriter(session: session, rows: rows)
        try db.execute(sql: "SAVEPOINT quarry_compared_rows")
        do {
            try writer.write(&attempt)
            // An object to compare whose row no UPDATE wrote was compared with nothing.
            guard writer.rows.comparing.isEmpty else { throw RowChangedSinceRead() }
            try db.execute(sql: "RELEASE SAVEPOINT quarry_compared_rows")
        } catch {
            // Rolled back: when that fails too, the save fails with the first error.
            do {
                try db.execute(sql: "ROLLBACK TO SAVEPOINT quarry_compared_rows")
                try db.execute(sql: "RELEASE SAVEPOINT quarry_compared_rows")
            } catch _ { throw error }
            return false
        }
        result = attempt
        work = writer.rows.work
        return true
    }
}
