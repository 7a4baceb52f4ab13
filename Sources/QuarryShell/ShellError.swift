import QuarryModel
import QuarryStore

/// Mistakes at the shell's own level: dot-commands and command-line options. They render
/// through `ErrorRendering` like every other error, so "did you mean" reads the same.
enum ShellError: QuarryError {
    /// `.foo`, with the closest command's name (dot included) and what lists them.
    case unknownCommand(String, suggestion: String?, remedy: String?)
    /// `.mode foo`, with every mode named.
    case unknownMode(String, suggestion: String?, modes: [String])
    /// `--tmeout`, with the closest option.
    case unknownOption(String, suggestion: String?)
    /// `.open chinok.sqlite`: no such file, and one beside it has the name without the
    /// typo (`NewFileNote.likelyMeant`); nothing is made.
    case openTypo(String, meant: String)
    /// `.open --new x.db` where x.db is: --new never replaces a file.
    case openNewExists(String)

    var operation: String? {
        switch self {
        case .openTypo: return ".open"
        case .openNewExists: return ".open --new"
        default: return nil
        }
    }

    var message: String {
        switch self {
        case .unknownCommand(let name, _, _): return "unknown command '.\(name)'"
        case .unknownMode(let name, _, _): return "unknown mode '\(name)'"
        case .unknownOption(let argument, _): return "unknown option '\(argument)'"
        case .openTypo(let path, _): return "\(path) does not exist"
        case .openNewExists(let path): return "\(path) exists"
        }
    }

    var suggestion: String? {
        switch self {
        case .unknownCommand(_, let suggestion, _), .unknownMode(_, let suggestion, _), .unknownOption(_, let suggestion):
            return suggestion
        case .openTypo(_, let meant): return meant
        case .openNewExists: return nil
        }
    }

    var remedy: String? {
        switch self {
        case .unknownCommand(_, _, let remedy): return remedy
        case .unknownMode(_, _, let modes): return "modes: " + modes.joined(separator: ", ")
        case .unknownOption: return nil
        case .openTypo(let path, _): return "nothing was made (.open --new \(path) makes a new, empty store)"
        case .openNewExists(let path): return ".open \(path) opens it (--new never replaces a file)"
        }
    }

    /// The unknown dot-command `name` (without its dot), with the closest known one.
    static func unknownCommand(_ name: String, among names: [String], remedy: String? = nil) -> ShellError {
        .unknownCommand(name, suggestion: closestMatch(to: name, in: names).map { "." + $0 }, remedy: remedy)
    }
}
