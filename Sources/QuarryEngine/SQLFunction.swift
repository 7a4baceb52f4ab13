import QuarryModel

/// A function SQL may call, described for the engine to install on every connection it
/// opens (`StoreRegistry.open(_:functions:)`): a Swift body over Quarry's values, or the
/// text functions an engine may answer in its own code first. The layers above the store
/// describe their functions with it and never touch an engine's library.
public struct SQLFunction {
    public enum Definition {
        /// `name(...)` with `argumentCount` arguments, answered by `body`; `deterministic`:
        /// the same arguments always give the same answer (the engine may then use it in
        /// an index or fold calls).
        case scalar(name: String, argumentCount: Int, deterministic: Bool, body: (any SQLFunctionArguments) -> Value)
        /// `quarry_string_op` and `quarry_fold`, which an engine calls once per row: it
        /// may answer plain ASCII itself and ask Swift for the rest.
        case text(TextFunctions)
    }
    public let definition: Definition

    public init(_ name: String, argumentCount: Int, deterministic: Bool, _ body: @escaping (any SQLFunctionArguments) -> Value) {
        definition = .scalar(name: name, argumentCount: argumentCount, deterministic: deterministic, body: body)
    }

    public static func text(_ functions: TextFunctions) -> SQLFunction { SQLFunction(definition: .text(functions)) }

    private init(definition: Definition) { self.definition = definition }
}

/// The Swift answers of the text functions: `quarry_string_op(text, pattern, operator,
/// options)` (nil: the operator is none) and `quarry_fold(text, options)`.
public struct TextFunctions {
    public let match: (_ text: String, _ pattern: String, _ op: Int, _ options: Int) -> Bool?
    public let fold: (_ text: String, _ options: Int) -> String

    public init(
        match: @escaping (_ text: String, _ pattern: String, _ op: Int, _ options: Int) -> Bool?,
        fold: @escaping (_ text: String, _ options: Int) -> String
    ) {
        self.match = match
        self.fold = fold
    }
}

/// The arguments of one call of an `SQLFunction`, read where the engine keeps them (no
/// array is made per call).
public protocol SQLFunctionArguments {
    var count: Int { get }
    /// The argument at `index`; NULL past the last.
    subscript(index: Int) -> Value { get }
}
