import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Declared column formats (`format(entity, column, name)`) last beyond the session: they
/// are kept in the sidecar, and reopening declares them again.
extension ForeignFileStore {
    /// Keeps a declaration (replacing the column's earlier one). A read-only open keeps it
    /// for the session only.
    func keep(_ format: ForeignSidecar.Format, session: StoreSession) throws {
        guard !session.isReadOnly else { return }
        var next = sidecar
        next.formats.removeAll { $0.entity == format.entity && $0.column == format.column }
        next.formats.append(format)
        guard next != sidecar else { return }
        try next.save(for: path)
        sidecar = next
    }

    /// The format Quarry writes the column in, declared or read from its values; refused
    /// as a write would be when the values show no one format.
    package func columnFormat(of entity: EntityDescription, _ attribute: AttributeDescription, session: StoreSession) throws -> String? {
        try session.connection.read { db in
            var formats = ColumnFormats()
            return try formats.format(of: entity, attribute, in: db, session: session)
        }.shortName
    }

    /// Declares the sidecar's formats again; one that no longer applies (a column dropped,
    /// its type changed) is left out with a note, and kept for a later open.
    func restoreFormats(in session: StoreSession) {
        for f in sidecar.formats {
            do {
                try session.declareFormat(f.entity, f.column, f.format, never: f.never, keep: false)
            } catch {
                session.openingNotes.append(
                    "format(\"\(f.entity)\", \"\(f.column)\", \"\(f.format)\") kept in \(ForeignSidecar.path(for: path)) no longer applies: \(error)")
            }
        }
    }
}
