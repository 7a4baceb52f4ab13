/// Errors of requests, rendered as one line.
public enum FetchError: Error, CustomStringConvertible, Equatable {
    case unknownSortKey(key: String, entity: String, suggestion: String?)
    case invalid(String)

    public var description: String {
        switch self {
        case let .unknownSortKey(key, entity, suggestion):
            return "sort: unknown key '\(key)' on entity \(entity)" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
        case let .invalid(message):
            return message
        }
    }
}
