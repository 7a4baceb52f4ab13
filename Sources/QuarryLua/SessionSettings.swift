import QuarryFormat
import QuarryStore

/// What the shell's session decides and the runtime reads: how values print, and whether
/// `--safe` is in force. One instance, owned by the session (which `.mode`, `.headers`
/// and the other dot-commands change) and handed to its runtime, so the runtime holds no
/// shell state of its own; a runtime made without a shell (a test) makes its own.
public final class SessionSettings {
    /// How results print (`.mode`, `.headers`, `.maxrows`, `.columns`, `.dates`, colour,
    /// terminal width).
    public var format = TableFormat()
    /// `--safe` is in force: files load as text only, and nothing is written (set by
    /// `QuarryRuntime.enterSandbox` once the sandbox is in place).
    public internal(set) var safe = false
    /// `-E`: the package library reads no LUA_PATH or LUA_CPATH (set before the runtime is
    /// made, as lua sets LUA_NOENV before opening its libraries).
    public var ignoresLuaEnvironment = false
    /// At an interactive prompt, asks a yes-or-no question (`delete all 275 rows of notes?
    /// [y/N]`) and says whether the answer was yes: `updateall` and `deleteall` without a
    /// predicate ask it first. Nil (scripts, `--yes`, `.destructive off`): nothing asks.
    public var confirm: ((String) -> Bool)?
    /// At an interactive prompt, what `os.exit()` says instead of quitting (pending changes
    /// it would drop, as `.quit` says); nil: it quits.
    public var exitNote: (() -> String?)?
    /// At an interactive prompt, a grouped or `properties` request (run in SQL on the
    /// saved rows) says in one note when its entity has unsaved changes its rows leave out.
    public var notesUnsavedChangesLeftOut = false
    /// At an interactive prompt, `updateall` and `deleteall` say in one note that what
    /// they changed is written already: `.changes` lists none of it and `rollback()`
    /// does not undo it, unlike every other change typed there.
    public var notesBatchWrites = false
    /// At an interactive prompt, `rollback()` says what it dropped (`rolled back 3
    /// pending changes (2 inserted, 1 updated)`, or `nothing to roll back`), counted as
    /// `.changes` lists them; a script's rollback() says nothing.
    public var notesRollback = false
    /// At an interactive prompt, the first predicate of the session that compares with
    /// nil (`x == nil`, `x = NULL`) says in one note that it matches missing values, as
    /// NSPredicate's does, where SQL's `= NULL` is never true.
    public var notesNilComparisons = false
    /// At an interactive prompt, an export says what it wrote where (`wrote 3 rows to
    /// out.csv`), and that it replaced a file when it did; it replaces it all the same, as
    /// sqlite3's `.output`, DuckDB's COPY and pandas do, and a script's says nothing.
    public var notesReplacedExports = false
    /// What `open(location)` opens another store with, and the name it is shown by (the
    /// location without a password). The shell sets it: it alone names engines, and it
    /// applies `--readonly` and `--safe` as `.open` does. Nil: `open()` is refused.
    public var openStore: ((StoreOpening) throws -> (context: ObjectContext, name: String))?
    /// The dot-commands' help by name (without the dot), as `.help NAME` prints it, so
    /// that `help(".diff")` gives it too; the shell sets it (the runtime knows no
    /// dot-command). Empty: help() knows none.
    public var dotCommandHelp: [(name: String, text: String)] = []

    public init() {}

    /// The notes an interactive prompt gives and a script does not.
    public func notesAsAPrompt() {
        notesUnsavedChangesLeftOut = true
        notesBatchWrites = true
        notesRollback = true
        notesNilComparisons = true
        notesReplacedExports = true
    }
}
