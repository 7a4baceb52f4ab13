import QuarryStore
import QuarryModel

/// Mistakes at the shell's own level: dot-commands and command-line options. They render
/// through `ErrorRendering` like every other error, so "did you mean" reads the same.
enum ShellError: QuarryError {
    /// `.foo`, with the closest command's name (dot included) and what lists them.
    case unknownCommand(String, suggestion: String?, remedy: String?)
    /// `.mode foo`, with every mode named.
    case unknownMode(String, suggestion: String?, modes: [String])
    /// `--tmeout`, with the closest option.
    case unknownOption(String, suggestion: String?)

    var message: String {
        switch self {
        case let .unknownCommand(name, _, _): return "unknown command '.\(name)'"
        case let .unknownMode(name, _, _): return "unknown mode '\(name)'"
        case let .unknownOption(argument, _): return "unknown option '\(argument)'"
        }
    }

    var suggestion: String? {
        switch self {
        case let .unknownCommand(_, suggestion, _), let .unknownMode(_, suggestion, _), let .unknownOption(_, suggestion):
            return suggestion
        }
    }

    var remedy: String? {
        switch self {
        case let .unknownCommand(_, _, remedy): return remedy
        case let .unknownMode(_, _, modes): return "modes: " + modes.joined(separator: ", ")
        case .unknownOption: return nil
        }
    }

    /// The unknown dot-command `name` (without its dot), with the closest known one.
    static func unknownCommand(_ name: String, among names: [String], remedy: String? = nil) -> ShellError {
        .unknownCommand(name, suggestion: closestMatch(to: name, in: names).map { "." + $0 }, remedy: remedy)
    }
}
