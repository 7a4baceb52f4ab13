import QuarryModel

/// The delete rules a foreign schema's keys give (`ForeignSchema.deleteRule(onDelete:)`): a
/// deny names the key it comes from, and `ON DELETE SET DEFAULT`: when a parent row goes,
/// its children's column takes the default the schema declares for it. The engine (SQLite
/// with `PRAGMA foreign_keys=ON`, PostgreSQL always) then checks the key, and refuses the
/// delete when no remaining parent row has the default: Quarry refuses it the same way,
/// before anything changes. The default is the one the schema's description holds
/// (`EntityStorage.setDefaults`, from `ForeignSchema.Column.defaultText`), evaluated by
/// the store's engine, whichever it is.
package struct ForeignKeyDefaults {
    package let session: StoreSession
    /// How a statement's rows are read: the connection's own read, or the caller's
    /// transaction (a batch's write: `ForeignKeyDefaults+SQLite`).
    package let rows: (String, [Value]) throws -> [[Value]]

    package init(session: StoreSession) {
        self.session = session
        self.rows = { sql, arguments in try session.connection.rows(sql, arguments: arguments) }
    }

    package init(session: StoreSession, rows: @escaping (String, [Value]) throws -> [[Value]]) {
        self.session = session
        self.rows = rows
    }

    /// The value `column` of `entity`'s table takes by default (NULL when none is declared).
    package func columnDefault(_ column: String, of entity: EntityDescription) throws -> Value {
        let storage = session.mapped(entity)
        if let declared = storage.unevaluatedDefaults[column] {
            throw StoreError.validation(
                message:
                    "delete: the default of \(storage.relation).\(column) is an expression Quarry does not evaluate: \(declared) (ON DELETE SET DEFAULT); set the column in SQL"
            )
        }
        guard let declared = storage.setDefaults[column] else { return .null }
        // On SQLite a literal or a clock only (`evaluatesSetDefault`), which reads nothing
        // and calls no function; a server's default is its own expression, which its
        // DELETE would evaluate the same way.
        do {
            return try rows("SELECT \(declared)", []).first?.first ?? .null
        } catch {
            // The engine's reason: a server's session reads in READ ONLY transactions, so a
            // default that writes (`nextval(...)`) is refused here, before the save.
            let reason = (error as? StoreError)?.message ?? "\(error)"
            throw StoreError.validation(message: "delete: the default of \(storage.relation).\(column) cannot be read: \(declared) (\(reason))")
        }
    }

    /// Refuses a default that names no parent row left after the delete, as the engine's
    /// key check does: `doomed` are the rows going (by key).
    package func checkDefaultParent(
        _ value: Value, parent: EntityDescription, matchedBy targetKey: String?,
        child: String, column: String, doomed: Set<Int64>
    ) throws {
        try checkDefaultParent(
            [value], parent: parent, matchedBy: [targetKey ?? session.mapped(parent).keyColumn],
            child: child, columns: [column], doomed: doomed)
    }

    /// The same for a key of several columns: `values` of `columns`, matched by the
    /// parent's `targetKeys` in order. A NULL among them names no parent (MATCH SIMPLE,
    /// both engines' default), so nothing is checked.
    package func checkDefaultParent(
        _ values: [Value], parent: EntityDescription, matchedBy targetKeys: [String],
        child: String, columns: [String], doomed: Set<Int64>
    ) throws {
        guard !values.contains(where: \.isNull) else { return }
        let storage = session.mapped(parent)
        let match = targetKeys.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: " AND ")
        let keys = try rows("SELECT \(storage.key) FROM \(storage.table) WHERE \(match)", values).compactMap { $0.first?.storedInteger }
        let survives = keys.contains { key in
            !doomed.contains(key) && session.registeredObject(entity: parent.name, primaryKey: key)?.isDeleted != true
        }
        guard !survives else { return }
        let named = columns.count == 1 ? columns[0] : "(" + columns.joined(separator: ", ") + ")"
        let given = values.count == 1 ? values[0].displayString : "(" + values.map(\.displayString).joined(separator: ", ") + ")"
        throw StoreError.validation(
            message: "delete: \(child).\(named) is set to its default \(given) on delete (ON DELETE SET DEFAULT), and no \(parent.name) row has it")
    }
}
