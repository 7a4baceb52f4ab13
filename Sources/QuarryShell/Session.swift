import Foundation
import QuarryLua
import QuarryModel
import QuarryPredicates
import QuarryStore
import QuarryStores
import QuarrySwiftReading

/// One run of the shell: its store (opened at the start, replaced by `.open`, closed at
/// the end), the runtime over it, one set of output settings and the flags the command
/// line set. The runtime is handed the store, the settings and the console; what only
/// the shell decides (read-only opens, the pager, the timer) stays here. Swift input is
/// read by the `quarry-swift-reader` process, started at the first Swift read.
final class Session {
    /// How values print and whether `--safe` is in force, shared with the runtime.
    let settings: SessionSettings
    /// The terminal, as the runtime writes to it.
    let console: TerminalConsole
    let runtime: QuarryRuntime
    /// `--readonly`: every store the session opens (`.open` too) is read-only.
    let opensReadOnly: Bool
    /// Whether opening a store says which views it left out: at an interactive prompt;
    /// a batch run says nothing of them (`OpeningNotes.report`).
    let notesViewsLeftOut: Bool
    /// The init file of an interactive session, run again after each `.open` (nil: none).
    var initFile: String?
    /// `.timer on`: the REPL says how long each line took.
    var timer = false
    /// At the REPL, `updateall` and `deleteall` without a predicate ask first (`--yes` and
    /// `.destructive off` turn it off).
    var asksBeforeDestroying = true
    /// What the `.diff` commands of piped input found (`quarry a.db - < job`): the run
    /// ends with the status a `.diff` on the command line gives, 1 when one differed and
    /// 2 when one failed, as `diff` and `cmp` end.
    var pipedDiff: BatchRunner.QueryOutcome = .ran
    /// Long output in the REPL goes through this (`.pager on|off`). Made when first
    /// needed: finding the pager reads the whole environment into a dictionary and
    /// searches `PATH`, 0.25 ms that a batch run, which never pages, need not pay.
    private(set) lazy var pager = Pager()
    /// The open store's file, when this run made it for a name that was not there:
    /// removed when the session is done with it, if nothing was written to it.
    private var newFile: NewFileCleanup?
    /// Those `open()` made in a script, removed in the same way when the session closes.
    private let openedNewFiles: OpenedNewFiles

    /// `--safe` is in force (the runtime's sandbox is in place).
    var isSafe: Bool { settings.safe }

    /// The store the command line names (`database`, with `model`), or a new in-memory
    /// one (opened when first used, unless `demo` data goes in at once); its notes are
    /// reported as it opens; `ignoreLuaEnvironment` is `-E`. Throws what stops the run before anything ran.
    init(
        database: String?, model: String?, demo: Bool, readOnly: Bool, memoryLimit: Int, ignoreLuaEnvironment: Bool = false,
        notesViewsLeftOut: Bool = true
    ) throws {
        self.notesViewsLeftOut = notesViewsLeftOut
        let settings = SessionSettings()
        settings.ignoresLuaEnvironment = ignoreLuaEnvironment
        let console = TerminalConsole(settings: settings)
        self.settings = settings
        self.console = console
        self.opensReadOnly = readOnly
        let openedNewFiles = OpenedNewFiles()
        self.openedNewFiles = openedNewFiles
        settings.openStore = { opening in
            try Session.openAnother(
                opening, readOnly: readOnly, safe: settings.safe, newFiles: openedNewFiles, notesViews: notesViewsLeftOut)
        }
        settings.dotCommandHelp = DotCommands.commands.map { ($0.name, $0.help) }
        if database == nil, model == nil, !demo {
            // A new, empty in-memory store: opened when first used (most batch runs
            // that name no database never use it), as it would have been now.
            runtime = try QuarryRuntime(memoryLimit: memoryLimit, settings: settings, console: console, swiftReader: SwiftReaderProcess()) {
                Session.openInMemoryStore(readOnly: readOnly)
            }
            return
        }
        let isNew = database.map(NewFileNote.isNew) ?? false
        let newFile = readOnly ? nil : database.flatMap { NewFileCleanup.before(opening: $0) }
        let context = try StoreOpener.open(database, readOnly: readOnly, model: model)
        OpeningNotes.report(context, views: notesViewsLeftOut)
        if isNew, let path = database, let note = NewFileNote.note(for: path) { reportNote(note) }
        runtime = try QuarryRuntime(
            context: context, memoryLimit: memoryLimit, settings: settings, console: console, swiftReader: SwiftReaderProcess())
        self.newFile = newFile
        // A Core Data store was read with the model; any other store gets its entities.
        if let model, !context.capabilities.contains(.appModel) {
            do { try runtime.loadModel(model) } catch {
                // A file this run made only to hold the model goes with it (a model
                // refused, or stopped by --timeout): the folder is left as it was.
                if isNew, let path = database {
                    context.close()
                    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                }
                throw error
            }
        }
    }

    /// What answers an UPDATE or DELETE typed as SQL, with the open store's entities.
    var sqlWriteAnswer: SQLWriteAnswer {
        let context = runtime.context
        return SQLWriteAnswer(
            entities: context.entities.map { entity in
                .init(
                    name: entity.name, table: context.mapped(entity).nameInSQL, attributes: entity.attributes.map(\.name),
                    textAttributes: Set(entity.attributes.filter { $0.type == .string }.map(\.name)))
            })
    }

    /// `--safe`: the runtime's sandbox, from here on.
    func enterSafeMode() throws {
        try runtime.enterSandbox()
    }

    /// `.open DB`: closes this store and opens `path` (nil: a new in-memory one) in its
    /// place; --readonly holds for every store of the session. Refused while the store
    /// has unsaved changes, which closing it would drop without a word. A name that is not
    /// there and is a typo of a file beside it is refused, nothing made, unless `new` (`.open
    /// --new`), which makes a store only where no file is.
    func open(_ path: String?, new: Bool = false) throws {
        if let pending = runtime.openedContext?.pendingChangesSummary {
            throw StoreError.during(operation: ".open", .database(message: "\(pending): save() or rollback() first"))
        }
        if new, let path, !NewFileNote.isNew(path) {
            throw ShellError.openNewExists(path)
        }
        if !new, let path, NewFileNote.isNew(path), let meant = NewFileNote.likelyMeant(path) { throw ShellError.openTypo(path, meant: meant) }
        let isNew = path.map(NewFileNote.isNew) ?? false
        let made = opensReadOnly ? nil : path.flatMap { NewFileCleanup.before(opening: $0, typo: !new) }
        let context = try StoreOpener.open(path, readOnly: path != nil && opensReadOnly)
        OpeningNotes.report(context, views: notesViewsLeftOut)
        // `.open` of a name that is not there says so whatever its extension: a typo
        // (`.open chinok.sqlite`) would otherwise be an empty store without a word.
        if isNew, let path { reportNote(NewFileNote.note(for: path) ?? NewFileNote.opened(path)) }
        runtime.use(context)
        // The store switched away from is closed now: a new file nothing was written to
        // goes, unless it is the one just opened again (`.open new.db` twice).
        if let previous = newFile, let path, NewFileCleanup.samePath(previous.path, path) { return }
        newFile?.run()
        newFile = made
    }

    /// `open(location)` in a script: another store beside the session's, opened as `.open`
    /// opens one (read-only under `--readonly`; under `--safe` no new file is made, nor a
    /// typo of a file beside it), with its notes said. Returns it with the name it is shown
    /// by, its password left out. A file made for a name that was not there goes into
    /// `newFiles`, to be removed at the end if nothing was written to it, as the command
    /// line's is.
    static func openAnother(
        _ opening: StoreOpening, readOnly: Bool, safe: Bool, newFiles: OpenedNewFiles, notesViews: Bool = true
    ) throws -> (context: ObjectContext, name: String) {
        let path = opening.location == ":memory:" ? nil : opening.location
        if let path, safe, StoreRegistry.namesFile(path), NewFileNote.isNew(path) {
            throw StoreError.during(operation: "open", .database(message: "\(path) does not exist, and --safe does not create files"))
        }
        // A model that is not there is refused before a new file is made to hold it.
        if let model = opening.model, !FileManager.default.fileExists(atPath: model) {
            throw StoreError.during(operation: "open", .database(message: "\(model): no such model file"))
        }
        let isNew = path.map(NewFileNote.isNew) ?? false
        let newFile = readOnly || opening.readOnly ? nil : path.flatMap { NewFileCleanup.before(opening: $0) }
        let context = try StoreOpener.open(path, readOnly: readOnly || opening.readOnly, model: opening.model)
        OpeningNotes.report(context, views: notesViews)
        if isNew, let path { reportNote(NewFileNote.note(for: path) ?? NewFileNote.opened(path)) }
        if let newFile { newFiles.add(newFile) }
        return (context, URLSecrets.withoutPasswords(in: opening.location))
    }

    /// The store closed at the end of the run (see `close`).
    nonisolated(unsafe) private static var closedAtExit: ObjectContext?

    /// At exit the store is closed, so a read-only open leaves no -wal or -shm behind
    /// (one never opened stays so). The closed context is then kept, not freed: the
    /// process is ending, and freeing GRDB's queue costs a batch run 0.15 ms (its first
    /// use of NotificationCenter) for memory the end of the process frees anyway.
    func close() {
        runtime.closeOpenedStores()
        if let context = runtime.openedContext {
            context.close()
            Session.closedAtExit = context
        }
        newFile?.run()
        newFile = nil
        openedNewFiles.run()
    }

    /// The in-memory store of a run that names no database, opened when first used.
    /// Opening one fails only when SQLite cannot allocate it; then, as when any store
    /// fails to open, the run stops with one line (exit status 1), wherever the Lua code
    /// had got to.
    private static func openInMemoryStore(readOnly: Bool) -> ObjectContext {
        do {
            let context = try StoreOpener.open(nil, readOnly: readOnly, model: nil)
            OpeningNotes.report(context)
            return context
        } catch {
            reportError("quarry: \(error)")
            exit(QuarryMain.Status.failure.rawValue)
        }
    }
}
