import ArgumentParser
import Foundation
import QuarryLua
import QuarryModel
import QuarryModelFiles
import QuarryPredicates
import QuarryStore
import QuarryStores

/// The `quarry` program: parses the command line, opens the store, runs chunks and the
/// script, and enters the REPL when there is nothing else to do (or with `-i`).
public enum QuarryMain {
    /// Exit statuses, as the contract fixes them.
    public enum Status: Int32 { case success = 0, failure = 1, usage = 2 }

    public static func run(_ arguments: [String]) -> Int32 {
        // The man page, made from the help's own data (scripts/install writes it out).
        if arguments == ["--generate-manual"] {
            print(Manual.page(), terminator: "")
            return Status.success.rawValue
        }
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments)
        } catch {
            let code = Options.exitCode(for: error)
            if code == .success {
                // Help, a completion script (repaired for zsh) or a completion's answer.
                print(CompletionScript.repaired(Options.fullMessage(for: error)))
                return Status.success.rawValue
            }
            let message = Options.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad usage"
            reportError("quarry: \(message) (quarry --help shows the usage)")
            return Status.usage.rawValue
        }
        if invocation.options.version {
            print("quarry \(Options.version) (Lua 5.4, \(StoreRegistry.engineVersions))")
            return Status.success.rawValue
        }
        return execute(invocation)
    }

    private static func execute(_ invocation: Invocation) -> Int32 {
        let options = invocation.options
        let session: Session
        // One deadline for the whole run, from here: reading --model and opening the store
        // count, as every chunk and the script do.
        let deadline = ProcessDeadline.start(seconds: options.timeout ?? 0)
        // The engines' heaps are bounded too, before any connection runs a statement.
        // Without --memory nothing is set: SQLite has no bound by default, and setting one
        // starts SQLite up (`sqlite3_initialize`), in a run that may never open a store.
        if let bytes = options.memory.flatMap(Options.bytes), bytes > 0 { StoreRegistry.limitEngineMemory(bytes: bytes) }
        do {
            if options.demo, invocation.database != nil {
                throw ValidationFailure("--demo opens its own in-memory store; leave out DB")
            }
            if let model = options.model {
                // Read before the store is opened, so a bad model makes no new file.
                _ = try ProcessDeadline.during("reading the model \(ErrorRendering.escaped(model))") { try StoreRegistry.readModel(model) }
            }
            // A batch run (-e, a script, piped input) says nothing at the open of views it
            // cannot read, unlike the REPL's open, until it names one (OpeningNotes.report).
            let opensAPrompt =
                options.interactive
                || (invocation.script == nil && options.chunks.isEmpty && invocation.queries.isEmpty && isatty(STDIN_FILENO) != 0)
            session = try Session(
                database: invocation.database, model: options.model, demo: options.demo, readOnly: options.readonly,
                memoryLimit: options.memory.flatMap(Options.bytes) ?? 0, ignoreLuaEnvironment: options.ignoreEnvironment,
                notesViewsLeftOut: opensAPrompt)
        } catch {
            reportError("quarry: \(error)")
            return Status.failure.rawValue
        }
        let runtime = session.runtime
        defer { session.close() }
        session.asksBeforeDestroying = !options.yes
        if options.demo {
            if let failure = Demo.load(into: runtime) {
                reportError("quarry: the demo data failed to load: \(failure)")
                return Status.failure.rawValue
            }
            if isatty(STDOUT_FILENO) != 0, invocation.script == nil, options.chunks.isEmpty { print(Demo.banner) }
        }
        if options.safe {
            do { try session.enterSafeMode() } catch {
                reportError("quarry: \(error)")
                return Status.failure.rawValue
            }
        }
        QuarryRuntime.catchInterrupts()
        let batch = BatchRunner(session: session, showTraceback: options.traceback)
        // The same deadline, now also checked by Lua (with the hard stop behind it).
        runtime.setDeadline(seconds: ProcessDeadline.remaining(until: deadline))
        var script = invocation.script
        let ranSomething = script != nil || !options.chunks.isEmpty || !invocation.queries.isEmpty
        // As `lua`: with no script and standard input not a terminal, run it as one.
        if !ranSomething, !options.interactive, isatty(STDIN_FILENO) == 0 { script = "-" }
        let interactive = options.interactive || (!ranSomething && script == nil)
        // A batch run prints every row of a long result where its output is a file or a
        // pipe, as sqlite3 and DuckDB write rows there (`quarry t.db job.lua > rows.txt`
        // wrote 20 of 336,776 rows around a line of "…", trial 27); at a terminal it shows
        // the first and last, saying how many it hid and what shows them.
        if !interactive { BatchRunner.formatOutput(session.settings, toTerminal: isatty(STDOUT_FILENO) != 0) }
        // os.exit() in a script or chunk says what the end of the run says of unsaved
        // changes, then exits: scripts never ask (the REPL's own guard asks, see REPL).
        if ranSomething || script != nil {
            session.settings.exitNote = {
                for note in unsavedChangesNotes(runtime) { reportNote(note) }
                // The process ends here, past the defer below: the store is closed as at
                // the end of the run (a typo's empty file goes).
                session.close()
                return nil
            }
            runtime.guardExit()
        }
        // As lua: `arg` is set before LUA_INIT runs (the script and its arguments; with -e
        // only, arg[0] names the program), so start-up code may read it too.
        if let script {
            runtime.setScriptArguments(script: script, arguments: invocation.scriptArguments)
        } else if !options.chunks.isEmpty {
            runtime.setScriptArguments(script: "quarry", arguments: [])
        }
        // LUA_INIT, then the init file, before anything else runs (chunks go after them).
        let startup = StartupFiles(options: options, interactive: interactive)
        if let luaInit = startup.luaInit {
            guard batch.runLuaInit(name: luaInit.name, value: luaInit.value) else { return Status.failure.rawValue }
        }
        if let initFile = startup.initFile {
            // An interactive session goes on after its init file's error (one line); a batch
            // run stops with status 1, as it would at its own script's error.
            if !batch.runFile(initFile), !interactive { return Status.failure.rawValue }
            if interactive { session.initFile = initFile }
        }
        for chunk in options.chunks {
            guard batch.runChunk(chunk) else { return Status.failure.rawValue }
        }
        if let script {
            guard batch.runScript(script, arguments: invocation.scriptArguments) else {
                return session.pipedDiff == .failed(.usage) ? Status.usage.rawValue : Status.failure.rawValue
            }
        }
        var differed = session.pipedDiff == .differed
        for query in invocation.queries {
            switch batch.runQuery(query) {
            case .ran: break
            case .differed: differed = true
            case .failed(let status): return status.rawValue
            }
        }
        runtime.clearStopRequests()
        // An observer that failed in the chunks or the script was noticed and the run went
        // on to its end; the failure still makes the status 1, as a script's own error
        // would. The REPL's own observer failures are only noticed, as its errors are.
        let observerFailed = runtime.observerFailures > 0
        if interactive {
            REPL(session: session).run()
        } else {
            // Never written without save(), as the contract says; but not dropped unsaid.
            for note in unsavedChangesNotes(runtime) { reportNote(note) }
        }
        return observerFailed || differed ? Status.failure.rawValue : Status.success.rawValue
    }
}

/// What a batch run says when it ends (at its end or by `os.exit()`) with changes not
/// saved: a line for the session's store, then one for each store `open()` opened that
/// has some; none when there are none.
private func unsavedChangesNotes(_ runtime: QuarryRuntime) -> [String] {
    func counts(_ context: ObjectContext) -> String {
        let pending = context.pendingChanges
        return "\(pending.inserted.count) inserted, \(pending.updated.count) updated, \(pending.deleted.count) deleted"
    }
    var notes: [String] = []
    if let context = runtime.openedContext, context.hasChanges {
        notes.append("the run ended with unsaved changes (\(counts(context))), not written: call save() to keep them")
    }
    for (name, context) in runtime.otherStoresWithChanges {
        notes.append("the run ended with unsaved changes in \(name) (\(counts(context))), not written: call save(b) on its store to keep them")
    }
    return notes
}

/// Every error the shell prints goes through here, as one line: a Quarry error as its
/// renderer makes it, any other text escaped and bounded by the same rules.
func reportError(_ message: String) {
    reportedErrors += 1
    writeError(ErrorRendering.oneLine(message))
}

/// How many errors have been reported: a dot-command in a piped script reports its own
/// and returns no status, so the batch tells a failed one by this count.
// Counted on the main thread only, where errors are rendered.
nonisolated(unsafe) private(set) var reportedErrors = 0

/// An error value, rendered once (`QuarryError.description` is `ErrorRendering`'s line).
func reportError(_ error: Error) {
    reportError(String(describing: error))
}

/// Lines for stderr that are several by design (a traceback), in the same colour.
func writeError(_ text: String) {
    fflush(nil)
    // Red on a terminal, plain everywhere else, and never with NO_COLOR.
    let red = useColor(STDERR_FILENO)
    FileHandle.standardError.write(Data(((red ? "\u{1B}[31m" : "") + text + (red ? "\u{1B}[0m" : "") + "\n").utf8))
}

/// A remark on stderr that is not an error (a model inferred, say): dim on a terminal.
/// Escaped as error lines are: a note quotes names from the file (a model's entities),
/// which could otherwise drive the terminal or forge a line of their own.
func reportNote(_ message: String) {
    fflush(nil)
    let dim = useColor(STDERR_FILENO)
    FileHandle.standardError.write(Data(((dim ? "\u{1B}[2m" : "") + "note: " + ErrorRendering.said(message) + (dim ? "\u{1B}[0m" : "") + "\n").utf8))
}

/// Whether `fd` gets colour: a terminal, and NO_COLOR unset (https://no-color.org).
func useColor(_ fd: Int32) -> Bool {
    isatty(fd) != 0 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
}

struct ValidationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
