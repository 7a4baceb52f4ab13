import CLua
import CQuarryShim
import CQuarrySignals
import QuarryFormat

/// What the shell asks of the runtime, in Swift terms only, so the shell imports no C
/// and holds no Lua stack: one guarded way to run what the user typed or wrote, the
/// interrupt and deadline requests, and the printing settings that live in Lua.
extension QuarryRuntime {
    /// From now on Ctrl-C stops the running statement instead of the process.
    public static func catchInterrupts() { quarry_catch_sigint() }

    /// Whether Ctrl-C was pressed since the last call (the record is cleared).
    public static func takeInterrupt() -> Bool { quarry_take_sigint() != 0 }

    /// Runs `body` (a pager showing a result) with the running statement's Ctrl-C off:
    /// Ctrl-C there is the pager's (less stops a search with it), and two of them would
    /// otherwise quit quarry. The statement is marked running again after it.
    public static func outsideTheStatement<T>(_ body: () -> T) -> T {
        let running = quarry_is_running() != 0
        if running { quarry_set_running(0) }
        defer { if running { quarry_set_running(1) } }
        return body()
    }

    /// One deadline for everything this runtime runs from now (`--timeout`; 0: none).
    public func setDeadline(seconds: Double) { quarry_set_deadline(state, seconds) }

    /// Clears the interrupt and the deadline once the batch part of a run is over.
    public func clearStopRequests() { quarry_clear_hooks(state) }

    /// Runs the chunk `load` pushed (below `arguments` strings) as one statement the user
    /// can stop with Ctrl-C; nothing stays on the stack.
    public func runGuarded(arguments: [String] = []) -> LuaFailure? {
        let count = push(strings: arguments)
        return guardedCall(argumentCount: count, resultCount: 0)
    }

    /// Compiles and runs `code` (a dot-command's) as one statement Ctrl-C can stop.
    public func runGuarded(_ code: String, chunkName: String) -> LuaFailure? {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        switch load(code, chunkName: chunkName) {
        case .loaded: return guardedCall(argumentCount: 0, resultCount: 0)
        case .incomplete(let message), .failed(let message): return LuaFailure(message: message, traceback: nil)
        }
    }

    /// What one REPL line came to.
    public enum LineOutcome {
        /// Lua wants more lines to finish the chunk.
        case incomplete
        /// It did not compile.
        case failed(String)
        /// It ran; a failure when it raised (its values were shown otherwise).
        case ran(LuaFailure?)
    }

    /// Compiles and runs `chunk` as the `lua` shell does (`return <chunk>` is tried first,
    /// so an expression prints), shows its values and leaves the stack as it was.
    public func evaluateLine(_ chunk: String) -> LineOutcome {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        let asExpression = load("return " + chunk, chunkName: "=stdin")
        var loaded = asExpression
        // `c = city:first(); c` and `x = 1; count("t")`: statements, then an expression
        // whose values print, as the line's last value would alone; a line whose last
        // part is no expression (`a = 1; b = 2`) runs as it is.
        if loaded != .loaded, let rewritten = TrailingExpression.rewritten(chunk) {
            lua_settop(state, top)
            loaded = load(rewritten, chunkName: "=stdin")
        }
        if loaded != .loaded {
            lua_settop(state, top)
            loaded = load(chunk, chunkName: "=stdin")
        }
        switch (asExpression, loaded) {
        case (_, .loaded): break
        case (.incomplete, _), (_, .incomplete): return .incomplete
        case (_, .failed(let message)): return .failed(message)
        }
        // The values are shown under the same guard: a fetch's query runs as its rows are
        // printed, and Ctrl-C stops it there as it stops the statement.
        return .ran(
            guarded {
                if let failure = call(argumentCount: 0, resultCount: LUA_MULTRET) { return failure }
                return showValues(from: top + 1)
            })
    }

    /// The message Lua gives for `chunk`, an unfinished chunk (`stdin:1: 'end' expected
    /// near <eof>`), as `lua` reports it when input ends inside one; nil when it is whole.
    public func unfinishedChunkMessage(_ chunk: String) -> String? {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        switch load(chunk, chunkName: "=stdin") {
        case .loaded: return nil
        case .incomplete(let message), .failed(let message): return message
        }
    }

    /// From now on `os.exit()` asks `settings.exitNote` first, and raises what it says as
    /// an `ExitNote` instead of quitting (the REPL's note on pending changes, which it
    /// shows as the note `.quit` gives). The original `os.exit` is
    /// kept in the wrapper only, as the sandbox keeps what it replaces.
    public func guardExit() {
        registerInQuarryTable([
            LuaBinding("__exitnote") { runtime, call in
                guard let note = runtime.settings.exitNote?() else { return call.pushNil() }
                throw ExitNote(note: note)
            }
        ])
        let wrapper = """
            local exit, note, error = os.exit, quarry.__exitnote, error
            quarry.__exitnote = nil
            if not exit then return end
            os.exit = function(...)
              note()
              return exit(...)
            end
            """
        if let failure = run(wrapper, chunkName: "=(quarry exit)") { console.note(failure.message) }
    }

    /// What the global `name` holds as the shell reads a bare word typed at the prompt:
    /// nothing, Quarry's own function of that name, or something a script put there.
    public enum GlobalHolding { case nothing, quarrys, other }

    public func globalHolding(_ name: String) -> GlobalHolding {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        quarry_pushglobaltable(state)
        guard LuaTable.field(state, -1, name) != LUA_TNIL else { return .nothing }
        pushQuarryTable()
        LuaTable.field(state, -1, name)
        return lua_rawequal(state, -1, -3) != 0 ? .quarrys : .other
    }

    /// The next value the REPL prints goes to `path` instead (`.once FILE`).
    public func sendNextPrintedValue(toFile path: String) {
        // In the aligned table that is the default, a file named for a data format gets
        // that format, as `.export` chooses by the name (trial 29: `.once top.csv` wrote an
        // aligned table); a mode the person set is theirs.
        let named: [String: OutputMode] = ["csv": .csv, "json": .json, "md": .markdown]
        let file = path.split(separator: "/").last ?? ""
        let suffix = file.contains(".") ? file.split(separator: ".").last.map { $0.lowercased() } : nil
        onceMode = settings.format.mode == .table ? suffix.flatMap { named[$0] } : nil
        pushQuarryTable()
        pushString(state, path)
        LuaTable.setField(state, -2, "__once")
        quarry_pop(state, 1)
    }

    /// Results the REPL prints come with their SQL and query plan (`.explain on`).
    public var explainsPrintedResults: Bool {
        get {
            pushQuarryTable()
            _ = LuaTable.field(state, -1, "__explaining")
            defer { quarry_pop(state, 2) }
            return lua_toboolean(state, -1) != 0
        }
        set {
            pushQuarryTable()
            lua_pushboolean(state, newValue ? 1 : 0)
            LuaTable.setField(state, -2, "__explaining")
            quarry_pop(state, 1)
        }
    }

    /// The one guarded call: running is marked for SIGINT, and a Ctrl-C that arrived
    /// is taken with the hooks it set cleared, after Lua returned.
    private func guardedCall(argumentCount: Int32, resultCount: Int32) -> LuaFailure? {
        guarded { call(argumentCount: argumentCount, resultCount: resultCount) }
    }

    /// Runs `body` with running marked for SIGINT (an interrupt then stops Lua through the
    /// guard hook and SQLite through its progress handler); a Ctrl-C that arrived is
    /// taken with the hooks it set cleared, after Lua returned.
    private func guarded(_ body: () -> LuaFailure?) -> LuaFailure? {
        // The state SIGINT sets the guard hook on (Lua runs without one otherwise).
        let guarded = quarry_guard_statement(mainState) != 0
        quarry_set_running(1)
        let failure = body()
        if guarded { quarry_end_guarded_statement(mainState) }
        quarry_set_running(0)
        if quarry_take_sigint() != 0 { quarry_clear_hooks(state) }
        return failure
    }
}
