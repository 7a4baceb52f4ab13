import GRDB
import QuarryPredicates
import QuarryStore

/// The keys of the rows of `table` that `fragment` selects in SQLite: what the differential
/// tests compare with the objects a predicate matches in memory.
func selectedKeys(of table: String = "Item", where fragment: SQLFragment, in context: ObjectContext) throws -> Set<Int64> {
    Set(
        try context.connection.read { db in
            try Int64.fetchAll(
                db, sql: "SELECT _pk FROM \(table) WHERE \(fragment.sql)", arguments: StatementArguments(fragment.arguments.map(\.databaseValue)))
        })
}
