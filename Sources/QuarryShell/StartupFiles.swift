import Foundation
import QuarryLua

/// The Lua a run reads before its own, as the contract's command line has it: `LUA_INIT_5_4`
/// (else `LUA_INIT`) as `lua` runs it, then an init file, `--init FILE` in any kind of run,
/// else `$XDG_CONFIG_HOME/quarry/init.lua` (`~/.config/quarry/init.lua`) in an interactive one.
/// Both run in the run's own state, so `--safe`, `--readonly`, `--timeout` and `--memory`
/// hold for them as for the script.
struct StartupFiles {
    /// The variable's name (as lua names the chunk) and its value: a chunk, or `@FILE`.
    var luaInit: (name: String, value: String)?
    /// The init file to run, if any (one `--init` names must exist; the user's is run
    /// only when it does).
    var initFile: String?

    /// `variable` reads one environment variable: getenv, not ProcessInfo's dictionary of
    /// them all, which a batch run would pay for at every start (see `Pager`).
    init(options: RunOptions, interactive: Bool, variable: (String) -> String? = StartupFiles.variable) {
        if !options.ignoreEnvironment {
            for name in ["LUA_INIT_5_4", "LUA_INIT"] {
                if let value = variable(name) {
                    luaInit = (name, value)
                    break
                }
            }
        }
        if options.noInit { return }
        if let file = options.initFile {
            initFile = file
        } else if interactive, let file = StartupFiles.userInitFile(variable: variable),
            FileManager.default.fileExists(atPath: file)
        {
            initFile = file
        }
    }

    /// `$XDG_CONFIG_HOME/quarry/init.lua`, else `~/.config/quarry/init.lua`. A relative
    /// XDG_CONFIG_HOME is ignored, as the XDG base directory specification asks.
    static func userInitFile(variable: (String) -> String?) -> String? {
        if let config = variable("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return config + "/quarry/init.lua"
        }
        guard let home = variable("HOME"), home.hasPrefix("/") else { return nil }
        return home + "/.config/quarry/init.lua"
    }

    static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

extension BatchRunner {
    /// Runs LUA_INIT's chunk (named `=LUA_INIT_5_4`, as lua names it) or its `@FILE`.
    func runLuaInit(name: String, value: String) -> Bool {
        if value.hasPrefix("@") { return runFile(String(value.dropFirst())) }
        switch runtime.load(value, chunkName: "=" + name) {
        case .loaded: return report(runtime.runGuarded())
        case .incomplete(let message), .failed(let message):
            reportError(message)
            return false
        }
    }

    /// Runs the Lua file at `path` (an init file, LUA_INIT's `@FILE`); a failure is one
    /// line naming the file (and its line, when Lua's message has one).
    func runFile(_ path: String) -> Bool {
        guard FileManager.default.isReadableFile(atPath: path) else {
            reportError("cannot open \(path): " + (FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"))
            return false
        }
        switch runtime.loadFile(path) {
        case .loaded: break
        case .incomplete(let message), .failed(let message):
            reportError(Self.naming(path, message))
            return false
        }
        guard let failure = runtime.runGuarded() else { return true }
        return report(LuaFailure(message: Self.naming(path, failure.message), traceback: failure.traceback, error: failure.error))
    }

    /// `message` from the file at `path`, said as coming from it: Lua's message names the
    /// file and line when the error was raised in it, but a long path only by its end
    /// (`...ig/quarry/init.lua:2:`, as Lua shortens a chunk's name to 60 bytes), which is
    /// given whole again; one raised elsewhere (an error object, a level past the file) is
    /// still said to come from it.
    static func naming(_ path: String, _ message: String) -> String {
        if message.hasPrefix(path) { return message }
        if message.hasPrefix("..."), let colon = message.dropFirst(3).firstIndex(of: ":") {
            let end = message[message.index(message.startIndex, offsetBy: 3)..<colon]
            if !end.isEmpty, path.hasSuffix(end) { return path + message[colon...] }
        }
        return "\(path): \(message)"
    }
}

extension Session {
    /// Runs the interactive init file again after `.open`, as at the start (nil: none).
    /// Its error is one line, and the REPL goes on.
    func rerunInitFile() {
        guard let initFile else { return }
        _ = BatchRunner(session: self, showTraceback: false).runFile(initFile)
    }
}
