import ArgumentParser
import QuarryStore

/// The command line: `quarry [options] [DB] [SCRIPT [ARGS...]]`.
struct Options: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "quarry",
        abstract: "A Lua shell over a Core Data-like object store on SQLite.",
        usage: usage,
        discussion: "With no DB, or with :memory:, the store is in memory. A first argument ending in .lua is the script. Script arguments are in the global 'arg', as in lua.")

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
    static let valued: Set<String> = ["-e", "--timeout", "--memory", "--model"]
    /// Every option name; anything else that starts with '-' is bad usage (not a cluster
    /// of short flags: `-dash.lua` must not read as `-d -a -s -h`).
    static let known: Set<String> = valued.union(["-i", "-h", "--help", "--version", "--readonly", "--safe", "--traceback", "--demo"])

    static var usage: String {
        """
        quarry [options] [DB] [SCRIPT [ARGS...]]
          quarry DB -e 'lua code'     run a chunk and exit
          quarry DB - < script.lua    read the script from standard input
          quarry -i DB SCRIPT         run SCRIPT, then enter the REPL
        """
    }

    func validate() throws {
        if positionals.count > 2 { throw ValidationError("too many arguments: '\(positionals[2])'") }
        if let timeout, !(timeout > 0 && timeout < 1e9) { throw ValidationError("--timeout takes a number of seconds above 0") }
        if let memory, Options.bytes(memory) == nil {
            throw ValidationError("--memory takes a size of at least 1M, such as 512M or 2G, got '\(memory)'")
        }
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

extension Options {
    /// The options of an ordinary command line (`-e CODE`, `--memory 10M`, flags), read
    /// without ArgumentParser, whose reflection of `Options` was most of the user-space
    /// time of a batch run's start-up (perf: about 70% of the user-space samples of
    /// `quarry -e 'local x = 1'`; the kernel's exec and page faults are the rest).
    /// Nil for anything else (help, `--name=value`, a repeated flag, a value that does not
    /// read or validate): ArgumentParser then reads it, and says what is wrong as ever.
    static func quickOptions(_ head: [String], _ positionals: [String]) -> Options? {
        var chunks: [String] = []
        var flags: Set<String> = []
        var values: [String: String] = [:]
        var index = 0
        while index < head.count {
            let argument = head[index]
            index += 1
            if valued.contains(argument) {
                guard index < head.count else { return nil }
                let value = head[index]
                index += 1
                if argument == "-e" { chunks.append(value); continue }
                guard values.updateValue(value, forKey: argument) == nil else { return nil }
                continue
            }
            guard ["-i", "--readonly", "--safe", "--traceback", "--demo", "--version"].contains(argument),
                  flags.insert(argument).inserted else { return nil }
        }
        var timeout: Double?
        if let text = values["--timeout"] {
            guard let seconds = Double(text) else { return nil }
            timeout = seconds
        }
        // Every property is assigned: ArgumentParser's wrappers may not be read before.
        var options = Options()
        options.chunks = chunks
        options.interactive = flags.contains("-i")
        options.readonly = flags.contains("--readonly")
        options.demo = flags.contains("--demo")
        options.safe = flags.contains("--safe")
        options.timeout = timeout
        options.memory = values["--memory"]
        options.model = values["--model"]
        options.traceback = flags.contains("--traceback")
        options.version = flags.contains("--version")
        options.positionals = positionals
        guard (try? options.validate()) != nil else { return nil }
        return options
    }
}

/// What to run, once the arguments are understood.
struct Invocation {
    var options: Options
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
                    let error = ShellError.unknownOption(argument, suggestion: closestMatch(to: name, in: Array(Options.known)))
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
        var options = try Options.quickOptions(head, positionals) ?? Options.parse(head + ["--"] + positionals)
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
