/// A kind of database server a location names (`postgres://…`), as opposed to a file:
/// what the registry needs to know of it to open it, and to keep its secrets out of
/// messages and history.
package protocol ServerStoreKind {
    /// Whether `location` is written as this server's address (and so is not a file's path).
    static func claims(_ location: String) -> Bool
    /// The connection to the store at `location` and the store over it, for the context
    /// the registry makes.
    static func open(_ location: String, readOnly: Bool) throws -> (StoreConnection, any PersistentStore)
    /// `text` (a line a person typed) with every secret of an address of this kind left out.
    static func withoutSecrets(in text: String) -> String
}
