import GRDB

/// Optimistic locking as Core Data does it: every write of a row adds 1 to its `Z_OPT`, so
/// a row whose `Z_OPT` moved since this context took it up was written by someone else,
/// even in columns the model does not map (which the comparison of values cannot see).
extension ObjectContext {
    /// Notes the `Z_OPT` of an object as it is first changed or deleted (when the store
    /// cannot be read now, the comparison of values alone guards it).
    func noteCoreDataVersion(_ object: ManagedObject) {
        guard let store = coreData, let key = object.primaryKey, coreData?.bookkeeping.versions[ObjectIdentifier(object)] == nil,
              let table = store.table(of: object.entity.name) else { return }
        if let version = try? read({ db in try CoreDataStore.version(in: table, key: key, db) }) {
            coreData?.bookkeeping.versions[ObjectIdentifier(object)] = version
        }
    }

    /// An object whose changes were dropped starts from its row's version when next changed.
    func forgetCoreDataVersion(_ object: ManagedObject) {
        coreData?.bookkeeping.versions[ObjectIdentifier(object)] = nil
    }

    /// Whether the row's `Z_OPT` differs from the one noted (inside the save's transaction).
    func coreDataVersionMoved(_ object: ManagedObject, in db: Database) throws -> Bool {
        guard let store = coreData, let key = object.primaryKey, let noted = coreData?.bookkeeping.versions[ObjectIdentifier(object)],
              let table = store.table(of: object.entity.name) else { return false }
        return try CoreDataStore.version(in: table, key: key, db) != noted
    }

    /// After the context took in the store's current values (`refreshFromStore`), their
    /// versions are the ones its changes start from.
    func refreshCoreDataVersions() {
        let pending = Array(unsaved.updated.values) + Array(unsaved.deleted.values)
        coreData?.bookkeeping.versions = [:]
        for object in pending { noteCoreDataVersion(object) }
    }

    /// Once a save committed or changes were rolled back, nothing is pending.
    func forgetCoreDataPending() {
        coreData?.bookkeeping.versions = [:]
        coreData?.bookkeeping.stamps = [:]
    }
}
