import GRDB
import GRDBSQLite
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// What a Core Data store keeps for one SQLite connection: what its triggers said about
/// the values they wrote, and its binary values kept in files beside it. Made for every
/// SQLite connection (a file may be a Core Data store whoever opens it), found again
/// through the connection's engine.
package final class CoreDataConnection {
    let triggerNotices: TriggerNoticeLog
    let externalData: ExternalBinaryData

    init(storePath: String?) {
        triggerNotices = TriggerNoticeLog()
        externalData = ExternalBinaryData(storePath: storePath)
    }

    /// The functions Core Data's views and triggers call, and its external data, which
    /// hears the connection's transactions.
    func install(on db: Database) {
        for function in CoreDataStore.sqlFunctions(noting: triggerNotices) + externalData.sqlFunctions { db.add(function: function) }
        externalData.engineLimit = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, -1))
        db.add(transactionObserver: externalData, extent: .databaseLifetime)
    }

    /// Core Data's part of every SQLite connection (`SQLiteEngine.ConnectionExtension`).
    package static let connectionExtension = SQLiteEngine.ConnectionExtension(
        functionNames: CoreDataStore.sqlFunctions.map(\.name) + [ExternalBinaryData.readFunction]
    ) { path in
        let connection = CoreDataConnection(storePath: path)
        return (connection, connection.install(on:))
    }
}

extension StoreConnection {
    /// Core Data's state for this connection; a fresh one (nothing noted, no external
    /// data) on a connection that is not SQLite's.
    var coreData: CoreDataConnection {
        sqlite?.extensionStates.lazy.compactMap { $0 as? CoreDataConnection }.first ?? CoreDataConnection(storePath: nil)
    }
}
