import GRDB
import QuarryPredicates
import QuarryStore

extension ObjectContext {
    /// Runs a request now.
    public func fetch(_ request: FetchRequest) throws -> FetchResults {
        try FetchResults(request, context: self)
    }

    /// The number of objects a request matches, counted by SQLite.
    public func count(_ request: FetchRequest) throws -> Int {
        try FetchResults(request, context: self).count()
    }

    /// The object with this primary key, registered once like any fetched object.
    public func object(entityName: String, primaryKey: Int64) throws -> ManagedObject? {
        let entity = try entity(named: entityName)
        let sql = "SELECT \(entity.selectionSQL()) FROM \(quoteIdentifier(entity.name)) WHERE \(quoteIdentifier(entity.primaryKey)) = ?"
        guard let row = try read({ db in try Row.fetchOne(db, sql: sql, arguments: [primaryKey]) }) else { return nil }
        return object(for: entity, row: row)
    }
}
