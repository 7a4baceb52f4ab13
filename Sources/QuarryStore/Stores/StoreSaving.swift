import QuarryModel

/// What a store does in a save (Core Data's `NSSaveChangesRequest` handed to the store):
/// the refusals before anything is written, what it plans besides the rows, the write in
/// one transaction, and what it follows of the pending changes.
package protocol StoreSaving: AnyObject {
    /// Writes a save in one transaction (conflicts settled first, as the request's policy
    /// says), asking this store at the points below; nothing of the objects changes here.
    func write(_ request: SaveChangesRequest, _ work: StoreSaveWork, session: StoreSession) throws -> SaveChangesResult
    /// Refuses a write (`save`, `updateall`, `deleteall`, `import`) that the program owning the file
    /// would not make as Quarry would make it; nothing has been written.
    func refuseUnfaithfulWrite(_ operation: String, in session: StoreSession) throws
    /// Before anything is written (`operation`: a save, a batch change, an import), outside
    /// any transaction: what the store makes only for writing (a Core Data store's
    /// triggers), or a refusal of the operation, nothing written.
    func willWrite(_ operation: String, in session: StoreSession) throws
    /// Refuses setting keys the store computes itself (a Core Data store's derived attributes).
    func refuseSetting(_ keys: some Sequence<String>, of entity: String, operation: String) throws
    /// What happened to the context's pending changes (a store that keeps what optimistic
    /// locking compares follows them).
    func pendingChanges(_ event: PendingChangeEvent, in session: StoreSession)
    /// Before the save's transaction: what the store will write besides the rows, decided
    /// from the pending changes (nothing is written yet).
    func prepare(_ request: SaveChangesRequest, in session: StoreSession) throws -> StoreSaveWork
    /// After the save committed and the objects took their new state.
    func didSave(in session: StoreSession)
    /// Whether a cascade's own delete rules act as soon as it deletes its rows, before the
    /// next rule of the row it came from (SQLite: its actions are triggers run at once),
    /// or after every rule of that row has acted (PostgreSQL: a cascade's deletes queue
    /// their keys' actions behind the ones already queued).
    var runsCascadesAtOnce: Bool { get }
}

/// What most stores answer alike.
extension StoreSaving {
    package func refuseUnfaithfulWrite(_ operation: String, in session: StoreSession) throws {}
    package func willWrite(_ operation: String, in session: StoreSession) throws {}
    package func refuseSetting(_ keys: some Sequence<String>, of entity: String, operation: String) throws {}
    package func pendingChanges(_ event: PendingChangeEvent, in session: StoreSession) {}
    package func prepare(_ request: SaveChangesRequest, in session: StoreSession) throws -> StoreSaveWork { StoreSaveWork() }
    package func didSave(in session: StoreSession) {}
}
