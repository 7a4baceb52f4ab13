import QuarryFetch
import QuarryFormat
import QuarryStore

/// The notes at the prompt that a read of the saved store leaves unsaved changes out:
/// decided here alone, for every such read (grouped rows, summaries, charts, SQL).
extension QuarryRuntime {
    /// At the prompt: dictionary rows are read in SQL from the saved rows (as Core Data's
    /// dictionary results are), and so are `summarize` and the charts, so unsaved changes
    /// to any entity the request reads (its own, its sub-entities, and each one its key
    /// paths reach in the predicate, sort, `keys` such as properties and groups) are not in
    /// them, though `count()` sees them; one note per request says how many, to which
    /// entities, and what brings them in. The rows are not changed. The one place every
    /// read of saved rows decides this note.
    func noteUnsavedChangesLeftOut(of request: FetchRequest, keys: [String] = []) {
        guard let (count, names) = unsavedChanges(readBy: request, keys: keys) else { return }
        let changes = count == 1 ? "change" : "changes"
        writeNotice("note: \(grouped(count)) unsaved \(changes) to \(names) \(count == 1 ? "is" : "are") not in these rows (save() first)")
    }

    /// At the prompt: `export(r, path)` writes what `r` holds, unsaved changes included
    /// (Core Data's `includesPendingChanges`, on by default), where `summarize(r)` and the
    /// charts, read in SQL, leave them out and say so. One note in the same words says
    /// which story the file tells; with `includesPending = false` the file leaves them out,
    /// and the note says that instead. Scripts say nothing (their output is unchanged).
    func noteUnsavedChangesExported(_ request: FetchRequest) {
        guard request.includesPendingChanges else { return noteUnsavedChangesLeftOut(of: request) }
        guard let (count, names) = unsavedChanges(readBy: request, keys: []) else { return }
        let changes = count == 1 ? "change" : "changes"
        writeNotice(
            "note: \(grouped(count)) unsaved \(changes) to \(names) \(count == 1 ? "is" : "are") in the rows written "
                + "(the store does not hold \(count == 1 ? "it" : "them") until save())")
    }

    /// The unsaved changes to the entities `request` reads (with `keys`), counted, and
    /// those entities named (`customers and orders`); nil for none or notes off.
    private func unsavedChanges(readBy request: FetchRequest, keys: [String]) -> (Int, String)? {
        guard settings.notesUnsavedChangesLeftOut, context.hasChanges else { return nil }
        let read = request.entitiesRead(keys: keys, in: context)
        let pending = context.pendingChanges
        let changed = (pending.inserted + pending.updated + pending.deleted).filter { object in
            read.contains { context.isKind(object.entity.name, of: $0) }
        }
        guard !changed.isEmpty else { return nil }
        let named = read.filter { name in changed.contains { context.isKind($0.entity.name, of: name) } }
        let names = named.count < 3 ? named.joined(separator: " and ") : named.dropLast().joined(separator: ", ") + " and " + (named.last ?? "")
        return (changed.count, names)
    }

    /// How many unsaved changes a read of the whole saved store leaves out, at the prompt
    /// (notes on); nil for none.
    func unsavedChangesToNote() -> Int? {
        guard settings.notesUnsavedChangesLeftOut, context.hasChanges else { return nil }
        let pending = context.pendingChanges
        let count = pending.inserted.count + pending.updated.count + pending.deleted.count
        return count > 0 ? count : nil
    }

    /// At the prompt: `sql()` and `export{ sql = }` read the saved store (as the sqlite3
    /// shell reads the file; SQL cannot see the context), so unsaved changes are not in
    /// their rows, though `count()` and fetches see them. One note per query says how many
    /// and what brings them in, as a grouped request's does. Scripts say nothing here (a
    /// batch run that ends with unsaved changes says so once, at its end).
    func noteUnsavedChangesOutsideSQL(_ operation: String) {
        guard let count = unsavedChangesToNote() else { return }
        let changes = count == 1 ? "change is" : "changes are"
        writeNotice("note: \(operation) reads the saved store; \(grouped(count)) unsaved \(changes) not in it (save() first)")
    }
}
