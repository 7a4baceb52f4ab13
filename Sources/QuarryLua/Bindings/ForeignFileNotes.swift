import QuarryStore

/// What Quarry says of a SQLite file another program made, where a person expects what
/// Quarry's own files do: that it keeps no history (`history{}` notes it once a session,
/// `.history` answers it, in the same words).
public enum ForeignFileNotes {
    /// A SQLite file Quarry did not make: its writers record no history of Quarry's, and
    /// Quarry adds to it only what is asked (a table, rows). Not a server's schema, nor
    /// Quarry's own file.
    public static func isForeignFile(_ context: ObjectContext) -> Bool {
        !context.store.isQuarrysFile && context.path != nil
    }

    /// What `.history` prints and `history{}` notes on such a file.
    public static let noHistory =
        "no history: a file Quarry did not make keeps none (history{} is empty there); other programs' changes are still seen"
}
