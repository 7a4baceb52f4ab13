import ArgumentParser
import QuarryStore
import QuarryModel

/// The command line: `quarry [options] [DB] [SCRIPT [ARGS...]]`.
struct Options: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "quarry",
        abstract: "A Lua shell over a Core Data-like object store on SQLite.",
        usage: usage,
        discussion: "DB may be a postgres://user@host:port/db[?schema=name][&notify=triggers] URL: the schema's tables, read and written on the server (notify=triggers lets observers hear every program's commits). With no DB, or with :memory:, the store is in memory. A first argument ending in .lua is the script. Script arguments are in the global 'arg', as in lua.")

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

    @Option(help: ArgumentHelp("The Core Data model (.xcdatamodeld, .xcdatamodel, .momd or .mom) of a Core Data store that carries none.", valueName: "model"))
    var model: String?

    @Flag(help: "Print a Lua traceback after an error.")
    var traceback = false

    @Flag(help: "Print the version and exit.")
    var version = false

    @Argument(help: ArgumentHelp("The database file (created if missing; :memory: or none for in-memory), then the script ('-' reads standard input).", valueName: "db-and-script"))
    var positionals: [String] = []

    /// Options that take a value, for splitting the script's own arguments off first.
    /// Arrays, not sets: a `Set<String>` made at start-up costs the Swift runtime a
    /// search of every protocol conformance in the binary (see `RunOptions`).
    static let valued: [String] = ["-e", "--timeout", "--memory", "--model"]
    /// The flags (options without a value).
    static let flags: [String] = ["-i", "--readonly", "--safe", "--traceback", "--demo", "--version"]
    /// Every option name; anything else that starts with '-' is bad usage (not a cluster
    /// of short flags: `-dash.lua` must not read as `-d -a -s -h`).
    static let known: [String] = valued + flags + ["-h", "--help"]

    static var usage: String {
        """
        quarry [options] [DB] [SCRIPT [ARGS...]]
          quarry DB -e 'lua code'     run a chunk and exit
          quarry DB - < script.lua    read the script from standard input
          quarry -i DB SCRIPT         run SCRIPT, then enter the REPL
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
        RunOptions(chunks: chunks, interactive: interactive, readonly: readonly, demo: demo, safe: safe, timeout: timeout,
                   memory: memory, model: model, traceback: traceback, version: version, positionals: positionals)
    }

    /// "512M" → bytes.
    static func bytes(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = text.uppercased()
        if digits.hasSuffix("B") { digits.removeLast() }
        var scale = 1
        if let last = digits.last, let unit = units[last] { scale = unit; digits.removeLast() }
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

    /// Splits `arguments` (without the program name) as `lua` does: everything after the
    /// script belongs to the script. A first argument ending in `.lua` is the script.
    static func parse(_ arguments: [String]) throws -> Invocation {
        var head: [String] = []
        var positionals: [String] = []
        var tail: [String] = []
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !optionsEnded, argument == "--" { optionsEnded = true; continue }
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
        return invocation
    }
}
