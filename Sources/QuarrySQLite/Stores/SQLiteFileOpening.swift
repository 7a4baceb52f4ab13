import GRDB
import QuarryEngine
import QuarryModel
import QuarryStore

/// Opening a SQLite file as a store: the connection, the store of the first kind that
/// recognises the file, and, once the context over them is made, Quarry's own files
/// switched to WAL. The registry's `OpenFileRequest` runs these steps.
package enum SQLiteFileOpening {
    /// The SQLite file at `path` opened (nil or ":memory:": in memory), with the store of
    /// the first of `kinds` that recognises it (Quarry's own when none does), for the
    /// context the registry makes over them; `finish` follows.
    package static func open(
        _ path: String?, readOnly: Bool, functions: [SQLFunction], model: String?,
        kinds: [any OpenableStore.Type], extensions: [SQLiteEngine.ConnectionExtension]
    ) throws -> (StoreConnection, any PersistentStore) {
        let connection = try StoreConnection.openingSQLite(path: path, readOnly: readOnly, functions: functions, extensions: extensions)
        let kind = try connection.read { db in try storeKind(of: db, path: connection.path, among: kinds) }
        return (connection, try kind.open(connection, modelPath: model))
    }

    /// The first of `kinds` that recognises the file behind `db`; Quarry's when none does.
    package static func storeKind(of db: Database, path: String?, among kinds: [any OpenableStore.Type]) throws -> any OpenableStore.Type {
        try kinds.first { try $0.recognizes(db, path: path) } ?? QuarryFileStore.self
    }

    /// After the context over a file is made: Quarry's own files switch to WAL.
    package static func finish(_ connection: StoreConnection, _ store: any PersistentStore) throws {
        try useWriteAheadLog(connection, store: store, opening: true)
    }

    /// Quarry's own files (ones holding its model) use WAL (see
    /// `StoreConnection.useWriteAheadLog`). Opening writes nothing else: a file Quarry did
    /// not create keeps its journal mode, and an empty file, one this open made included,
    /// stays as it is until its first entity (`define`), when it becomes Quarry's. So a
    /// session that never writes leaves a new name's file empty, and the shell removes it
    /// (`NewFileCleanup`), as sqlite3's shell makes no file until something is written.
    /// Only a file opened as Quarry's: one with an empty `quarry_model` among other tables
    /// opens as someone else's (`QuarryFileStore.recognizes`), and keeps its bytes.
    static func useWriteAheadLog(_ connection: StoreConnection, store: any PersistentStore, opening: Bool = false) throws {
        guard connection.path != nil, !connection.isReadOnly, store is QuarryFileStore else { return }
        let ours = try connection.read { db in
            try db.hasTable(QuarryFileStore.modelTable)
                || (!opening && Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0)
        }
        if ours { try connection.useWriteAheadLog() }
    }
}
