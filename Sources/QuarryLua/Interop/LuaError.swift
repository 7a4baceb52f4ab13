import QuarryModel
import QuarryStore

/// An error to raise in Lua, as parts the one renderer composes (see `ErrorRendering`).
public struct LuaError: QuarryError {
    /// What kind of mistake, where one recurs: lauxlib's argument errors are built from
    /// their parts, so a caller can say which argument in its own words.
    public enum Kind: Equatable, Sendable {
        /// "bad argument #index to 'function' (detail)".
        case badArgument(index: Int32, function: String)
        /// A message as given.
        case other
    }

    public var kind: Kind
    /// For `.badArgument`, the part inside the parentheses; otherwise the whole message.
    public var detail: String
    public var operation: String?
    public var location: ErrorLocation?
    public var suggestion: String?
    public var remedy: String?
    /// False when the message already carries its position (a re-raised Lua error).
    public var addsPosition: Bool

    public init(_ message: String, operation: String? = nil, suggestion: String? = nil, remedy: String? = nil, addsPosition: Bool = true) {
        self.kind = .other
        self.detail = message
        self.operation = operation
        self.suggestion = suggestion
        self.remedy = remedy
        self.addsPosition = addsPosition
    }

    /// lauxlib's "bad argument #1 to 'fetch' (string expected, got nil)".
    public static func badArgument(_ index: Int32, to function: String, _ detail: String, suggestion: String? = nil) -> LuaError {
        var error = LuaError(detail, suggestion: suggestion)
        error.kind = .badArgument(index: index, function: function)
        return error
    }

    public var message: String {
        switch kind {
        case .badArgument(let index, let function): return "bad argument #\(index) to '\(function)' (\(detail))"
        case .other: return detail
        }
    }
}

extension LuaError {
    /// A Lua value no attribute can take (a function, a coroutine): `Item.n cannot hold a
    /// function`, from new{}, o.n = ..., bindings and updateall alike.
    static func cannotHold(_ entity: String, _ key: String, _ typeName: String, operation: String? = nil) -> LuaError {
        let article = typeName.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        return LuaError("\(entity).\(key) cannot hold \(article) \(typeName)", operation: operation)
    }
}
