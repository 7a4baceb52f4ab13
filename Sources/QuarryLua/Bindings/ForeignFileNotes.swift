import Foundation
import QuarryStore

/// What Quarry says of a SQLite file another program made, where a person expects what
/// Quarry's own files do: that it keeps no history (`history{}` notes it once a session,
/// `.history` answers it, in the same words), and that an import changed the file.
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

    /// What a batch change or an import says of rows it wrote: they are committed, where
    /// every other change typed at the prompt waits for `save()`.
    static let writtenAtOnce = "written to the file at once (rollback() does not undo it)"

    /// An import into such a file: the table it made or added to, the rows, and that they
    /// are in the file already, as sqlite3's `.import` commits them.
    static func imported(_ summary: ImportSummary, into table: String, path: String, file: String) -> String {
        let source = (path as NSString).lastPathComponent
        let target = (file as NSString).lastPathComponent
        let rows = summary.rows == 1 ? "1 row" : "\(summary.rows) rows"
        let what =
            summary.createdEntity
            ? "made the table \(table) in \(target), a file Quarry did not make, with \(rows)"
            : "added \(rows) to the table \(table) of \(target), a file Quarry did not make"
        return "import \(source): \(what); \(writtenAtOnce)"
    }
}
