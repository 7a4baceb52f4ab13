import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A SQLite batch's delete rules read inside its write (`SQLiteBatchWriter`): GRDB's calls
/// are not reentrant, so the defaults are read through the transaction already held.
extension ForeignKeyDefaults {
    init(session: StoreSession, in db: Database) {
        self.init(session: session) { sql, arguments in
            do {
                return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments.map(\.databaseValue)))
                    .map { Array($0.databaseValues).map(Value.init) }
            } catch let error as DatabaseError { throw StoreError(error) }
        }
    }

    package func columnDefault(_ column: String, of entity: EntityDescription, in db: Database) throws -> Value {
        try ForeignKeyDefaults(session: session, in: db).columnDefault(column, of: entity)
    }

    func checkDefaultParent(
        _ value: Value, parent: EntityDescription, matchedBy targetKey: String?,
        child: String, column: String, doomed: Set<Int64>, in db: Database
    ) throws {
        try ForeignKeyDefaults(session: session, in: db).checkDefaultParent(
            value, parent: parent, matchedBy: targetKey,
            child: child, column: column, doomed: doomed)
    }
}
