/// What the command line asks for, as the shell uses it: plain values, no ArgumentParser.
///
/// Why not `Options` itself: making one, even without parsing, instantiates
/// ArgumentParser's generic property wrappers (`Option<[String]>`, `Flag<Bool>`, ...), and
/// the Swift runtime checks their generic requirements by searching every protocol
/// conformance in the binary (some 6,000 records, tens of microseconds a search, more for
/// the first). A batch run that names no database now makes no such search at all
/// (`quarry -e 'local x = 1'`: none, against 14 lookups and 11 full searches before; the
/// rest were GRDB's, in the store that is now opened only when used). So an ordinary
/// command line is read by hand into this (`Options.quickOptions`), and only anything
/// unusual goes through ArgumentParser (`Options.run`).
struct RunOptions: Equatable {
    var chunks: [String] = []
    var interactive = false
    var readonly = false
    var demo = false
    var safe = false
    var timeout: Double?
    var memory: String?
    var model: String?
    var traceback = false
    var version = false
    /// `--init FILE`: run FILE first, in any kind of run.
    var initFile: String?
    /// `--no-init`: no init file at all.
    var noInit = false
    /// `--yes`: the REPL asks nothing before updateall or deleteall without a predicate.
    var yes = false
    /// `-E`: LUA_INIT, LUA_PATH and LUA_CPATH are not read.
    var ignoreEnvironment = false
    var positionals: [String] = []
}

extension Options {
    /// The options of an ordinary command line (`-e CODE`, `--memory 10M`, flags), read
    /// without ArgumentParser (see `RunOptions`). Nil for anything else (help,
    /// `--name=value`, a repeated flag, a value that does not read or validate):
    /// ArgumentParser then reads it, and says what is wrong as ever.
    static func quickOptions(_ head: [String], _ positionals: [String]) -> RunOptions? {
        var options = RunOptions(positionals: positionals)
        // Flags and valued options seen, to leave a repeated one to ArgumentParser. Arrays,
        // not a set or dictionary: a handful of names, and no runtime conformance search.
        var seen: [String] = []
        var index = 0
        while index < head.count {
            let argument = head[index]
            index += 1
            if valued.contains(argument) {
                guard index < head.count else { return nil }
                let value = head[index]
                index += 1
                if argument == "-e" {
                    options.chunks.append(value)
                    continue
                }
                guard !seen.contains(argument) else { return nil }
                seen.append(argument)
                switch argument {
                case "--timeout":
                    guard let seconds = Double(value) else { return nil }
                    options.timeout = seconds
                case "--memory": options.memory = value
                case "--init": options.initFile = value
                default: options.model = value
                }
                continue
            }
            guard flags.contains(argument), !seen.contains(argument) else { return nil }
            seen.append(argument)
            switch argument {
            case "-i": options.interactive = true
            case "--readonly": options.readonly = true
            case "--safe": options.safe = true
            case "--traceback": options.traceback = true
            case "--demo": options.demo = true
            case "-E": options.ignoreEnvironment = true
            case "--no-init": options.noInit = true
            case "--yes": options.yes = true
            default: options.version = true
            }
        }
        guard problem(positionals: positionals, timeout: options.timeout, memory: options.memory) == nil else { return nil }
        return options
    }
}
