import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// Optimistic locking as Core Data does it: every write of a row adds 1 to its `Z_OPT`, so
/// a row whose `Z_OPT` moved since the context took it up was written by someone else,
/// even in columns the model does not map (which the comparison of values cannot see).
extension CoreDataStore {
    /// Notes the `Z_OPT` of an object as it is first changed or deleted (when the store
    /// cannot be read now, the comparison of values alone guards it).
    func noteVersion(_ object: ManagedObject, in session: StoreSession) {
        guard let key = object.primaryKey, bookkeeping.versions[ObjectIdentifier(object)] == nil,
            let table = table(of: object.entity.name)
        else { return }
        if let version = try? session.connection.read({ db in try Self.version(in: table, key: key, db) }) {
            bookkeeping.versions[ObjectIdentifier(object)] = version
        }
    }

    /// An object whose changes were dropped starts from its row's version when next changed.
    func forgetVersion(_ object: ManagedObject) {
        bookkeeping.versions[ObjectIdentifier(object)] = nil
    }

    /// Whether the row's `Z_OPT` differs from the one noted (inside the save's transaction).
    func versionMoved(_ object: ManagedObject, in db: Database) throws -> Bool {
        guard let key = object.primaryKey, let noted = bookkeeping.versions[ObjectIdentifier(object)],
            let table = table(of: object.entity.name)
        else { return false }
        return try Self.version(in: table, key: key, db) != noted
    }

    /// After the context took in the store's current values (`refreshFromStore`), their
    /// versions are the ones its changes start from.
    func refreshVersions(in session: StoreSession) {
        let pending = session.pendingChanges
        bookkeeping.versions = [:]
        for object in pending.updated + pending.deleted { noteVersion(object, in: session) }
    }

    /// Once a save committed or changes were rolled back, nothing is pending.
    func forgetPending() {
        bookkeeping.versions = [:]
        bookkeeping.stamps = [:]
    }
}
