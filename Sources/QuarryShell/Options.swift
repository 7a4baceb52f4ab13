import ArgumentParser
import Foundation
import QuarryModel
import QuarryStore

/// The command line: `quarry [options] [DB] [SCRIPT [ARGS...]]`.
struct Options: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "quarry",
        abstract: "A Lua shell over a Core Data-like object store on SQLite.",
        usage: usage,
        discussion:
            "DB may be a postgres://user@host:port/db[?schema=name][&notify=triggers] URL: the schema's tables, read and written on the server (notify=triggers lets observers hear every program's commits), or a libpq connection string as psql takes it ('host=db.internal dbname=flights user=analyst'; schema= and notify= are keywords there). No password is ever shown. With no DB, or with :memory:, the store is in memory. A first argument ending in .lua is the script. Script arguments are in the global 'arg', as in lua. In SCRIPT's place, a statement that starts with SELECT, WITH, VALUES, EXPLAIN or PRAGMA (any case) and names no file runs as sql() runs it and prints its rows as a table, as sqlite3 DB 'SELECT ...' does (each further argument that reads so runs after it)."
    )

    @Option(name: .customShort("e"), help: ArgumentHelp("Run a chunk of Lua, then exit (repeatable).", valueName: "code"))
    var chunks: [String] = []

    @Flag(name: .customShort("i"), help: "Enter the REPL after running the script or chunks.")
    var interactive = false

    @Flag(help: "Open the database without ever writing to it.")
    var readonly = false

    @Flag(help: "Open an in-memory store filled with the sample data set.")
    var demo = false

    @Flag(help: "Run untrusted scripts: no os.execute, io.popen, C modules or file writes.")
    var safe = false

    @Option(help: ArgumentHelp("Stop the script after this many seconds (exit 1).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Cap the Lua heap, e.g. 512M or 2G; exceeding it is an error.", valueName: "size"))
    var memory: String?

    @Option(
        help: ArgumentHelp(
            "The Core Data model (.xcdatamodeld, .xcdatamodel, .momd or .mom) of a Core Data store that carries none.", valueName: "model"),
        completion: .file(extensions: ["xcdatamodeld", "xcdatamodel", "momd", "mom"]))
    var model: String?

    @Flag(help: "Print a Lua traceback after an error.")
    var traceback = false

    @Option(
        name: .customLong("init"),
        help: ArgumentHelp("Run this Lua file before the script, the chunks or the REPL, instead of the interactive init file.", valueName: "file"),
        completion: .file(extensions: ["lua"]))
    var initFile: String?

    @Flag(help: "Run no init file, not even in the REPL.")
    var noInit = false

    @Flag(help: "At the REPL, run updateall and deleteall without a predicate without asking first.")
    var yes = false

    @Flag(name: .customShort("E"), help: "Ignore the environment variables LUA_INIT, LUA_PATH and LUA_CPATH, as lua -E does.")
    var ignoreEnvironment = false

    @Flag(help: "Print the version and exit.")
    var version = false

    // Three arguments, not one list, so that each position completes its own way: DB,
    // then a .lua script, then any file. The command line is still split by `Invocation`.
    @Argument(
        help: ArgumentHelp(
            "The database: a file (created if missing, and kept once something is written to it), :memory: or none for in-memory, a postgres:// URL, or a libpq connection string (host=… dbname=…).",
            valueName: "db"),
        completion: .custom(Options.completeDatabase))
    var database: String?

    @Argument(
        help: ArgumentHelp("The Lua script to run ('-' reads standard input).", valueName: "script"),
        completion: .file(extensions: ["lua"]))
    var script: String?

    @Argument(
        help: ArgumentHelp("The script's own arguments, in the global 'arg'.", valueName: "args"),
        completion: .file())
    var scriptArguments: [String] = []

    /// DB and SCRIPT as given, in order.
    var positionals: [String] { [database, script].compactMap { $0 } + scriptArguments }

    /// Options that take a value, for splitting the script's own arguments off first.
    /// Arrays, not sets: a `Set<String>` made at start-up costs the Swift runtime a
    /// search of every protocol conformance in the binary (see `RunOptions`).
    /// OptionListTests checks these lists against the declarations above.
    static let valued: [String] = ["-e", "--timeout", "--memory", "--model", "--init"]
    /// The flags (options without a value).
    static let flags: [String] = ["-i", "--readonly", "--safe", "--traceback", "--demo", "--version", "-E", "--no-init", "--yes"]
    /// Every option name; anything else that starts with '-' is bad usage (not a cluster
    /// of short flags: `-dash.lua` must not read as `-d -a -s -h`).
    static let known: [String] = valued + flags + ["-h", "--help"]

    /// What ArgumentParser answers itself, before any option is read: completion
    /// scripts (`--generate-completion-script bash|zsh|fish`), the callback they make for
    /// DB's completions (`---completion`), and the help as JSON (which the manual is made from).
    static let generatorRequests: [String] = ["--generate-completion-script", "---completion", "--experimental-dump-help"]

    /// DB's completions: the files and folders that start with `prefix`, `:memory:`, and
    /// `postgres://` to start a URL. The shell filters them by the word typed.
    @Sendable static func completeDatabase(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let manager = FileManager.default
        // Listed where it is (~/ is $HOME's), offered as typed.
        var listed = folder.isEmpty ? "./" : folder
        if listed.hasPrefix("~/"), let home = getenv("HOME") { listed = String(cString: home) + listed.dropFirst() }
        let entries = (try? manager.contentsOfDirectory(atPath: listed)) ?? []
        var found: [String] = []
        // `music.sqlite.quarry` is music.sqlite's sidecar (what format() and relate() added),
        // no database of its own.
        let names = Set(entries)
        let sidecar = { (name: String) in name.hasSuffix(".quarry") && names.contains(String(name.dropLast(".quarry".count))) }
        for name in entries.sorted() where name.hasPrefix(start) && (start.hasPrefix(".") || !name.hasPrefix(".")) && !sidecar(name) {
            var isFolder: ObjCBool = false
            _ = manager.fileExists(atPath: listed + name, isDirectory: &isFolder)
            // bash's `-o filenames` adds a folder's '/' itself (`sub//` otherwise).
            found.append(folder + name + (isFolder.boolValue && CompletionShell.requesting != .bash ? "/" : ""))
        }
        // bash lists a file name by its last part, `postgres://` as a bare '/': there it is
        // offered once a word is typed (`quarry p` completes it).
        found += CompletionShell.requesting == .bash && prefix.isEmpty ? [":memory:"] : ["postgres://", ":memory:"]
        // zsh's _describe reads "name:description": a colon in a name is escaped.
        if CompletionShell.requesting == .zsh { found = found.map { $0.replacingOccurrences(of: ":", with: "\\:") } }
        return found
    }

    static var usage: String {
        """
        quarry [options] [DB] [SCRIPT [ARGS...]]
          quarry DB -e 'lua code'     run a chunk and exit
          quarry DB - < script.lua    read the script from standard input
          quarry -i DB SCRIPT         run SCRIPT, then enter the REPL
          quarry DB "SELECT ..."      run a query, print its rows, and exit (as sqlite3)
          quarry DB ".schema T"       run a dot-command and exit (as sqlite3)
        """
    }

    func validate() throws {
        if let problem = Options.problem(positionals: positionals, timeout: timeout, memory: memory) {
            throw ValidationError(problem)
        }
    }

    /// What is wrong with these values, if anything: the one check both readings make.
    static func problem(positionals: [String], timeout: Double?, memory: String?) -> String? {
        if positionals.count > 2 { return "too many arguments: '\(positionals[2])'" }
        if let timeout, !(timeout > 0 && timeout < 1e9) { return "--timeout takes a number of seconds above 0" }
        if let memory, Options.bytes(memory) == nil {
            return "--memory takes a size of at least 1M, such as 512M or 2G, got '\(memory)'"
        }
        return nil
    }

    /// The values ArgumentParser read, as the rest of the shell takes them.
    var run: RunOptions {
        RunOptions(
            chunks: chunks, interactive: interactive, readonly: readonly, demo: demo, safe: safe, timeout: timeout,
            memory: memory, model: model, traceback: traceback, version: version, initFile: initFile, noInit: noInit, yes: yes,
            ignoreEnvironment: ignoreEnvironment, positionals: positionals)
    }

    /// "512M" → bytes.
    static func bytes(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = text.uppercased()
        if digits.hasSuffix("B") { digits.removeLast() }
        var scale = 1
        if let last = digits.last, let unit = units[last] {
            scale = unit
            digits.removeLast()
        }
        guard let n = Double(digits), n.isFinite, n > 0 else { return nil }
        let bytes = n * Double(scale)
        // Below a megabyte Lua cannot even load its libraries.
        guard bytes >= Double(1 << 20), bytes < 1e15 else { return nil }
        return Int(bytes)
    }
}

/// What to run, once the arguments are understood.
struct Invocation {
    var options: RunOptions
    var database: String?
    var script: String?
    var scriptArguments: [String]
    /// `quarry f.db "SELECT …"`, as `sqlite3 f.db "SELECT …"` takes it: statements given
    /// where SCRIPT goes, run as the prompt runs a line of SQL (see `commandLineQueries`).
    var queries: [String] = []

    /// Splits `arguments` (without the program name) as `lua` does: everything after the
    /// script belongs to the script. A first argument ending in `.lua` is the script.
    static func parse(_ arguments: [String]) throws -> Invocation {
        // ArgumentParser's own requests (a completion script, a completion's callback, the
        // help as JSON): the whole line is ArgumentParser's to read, and it throws the answer.
        if let first = arguments.first, Options.generatorRequests.contains(where: { first == $0 || first.hasPrefix($0 + "=") }) {
            _ = try Options.parse(arguments)
        }
        var head: [String] = []
        var positionals: [String] = []
        var tail: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !optionsEnded, argument == "--" {
                optionsEnded = true
                continue
            }
            if !optionsEnded, argument.hasPrefix("-"), argument != "-" {
                let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
                guard Options.known.contains(name) else {
                    let error = ShellError.unknownOption(argument, suggestion: closestMatch(to: name, in: Options.known))
                    throw ValidationError(error.description)
                }
                head.append(argument)
                if Options.valued.contains(argument), index < arguments.count {
                    head.append(arguments[index])
                    index += 1
                }
                continue
            }
            positionals.append(argument)
            let isScript = positionals.count == 2 || argument.hasSuffix(".lua") || argument == "-"
            if isScript {
                tail = Array(arguments[index...])
                break
            }
        }
        var options = try Options.quickOptions(head, positionals) ?? Options.parse(head + ["--"] + positionals).run
        options.positionals = positionals
        var invocation = Invocation(options: options, database: nil, script: nil, scriptArguments: tail)
        if let last = positionals.last, positionals.count == 2 || last.hasSuffix(".lua") || last == "-" {
            invocation.script = last
            invocation.database = positionals.count == 2 ? positionals[0] : nil
        } else {
            invocation.database = positionals.first
        }
        if invocation.database == ":memory:" { invocation.database = nil }
        if let queries = commandLineQueries(invocation) {
            invocation.queries = queries
            invocation.script = nil
            invocation.scriptArguments = []
        }
        return invocation
    }

    /// The statements of `quarry f.db "SELECT …"` or `quarry f.db ".schema t"` (sqlite3's
    /// habit): SCRIPT, and each of its arguments, reads as SQL (its first word is a
    /// statement's, any case) or is a dot-command this shell has, and is no existing file,
    /// nor a `.lua` name (a missing script says "cannot open" as before). Nil when any is
    /// not: then SCRIPT is a script, as ever.
    static func commandLineQueries(_ invocation: Invocation) -> [String]? {
        guard invocation.database != nil || invocation.options.positionals.first == ":memory:", let script = invocation.script,
            script != "-"
        else { return nil }
        let statements = [script] + invocation.scriptArguments
        // The `.lua` name first: a script's run (`quarry f.db job.lua`) then never reads
        // its name as SQL, which trims it through Foundation (0.9M instructions at start).
        let allSQL = statements.allSatisfy { text in
            !text.hasSuffix(".lua") && (SQLAtPrompt.reading(text) != nil || DotCommands.isCommand(text))
                && !FileManager.default.fileExists(atPath: text)
        }
        return allSQL ? statements : nil
    }
}
