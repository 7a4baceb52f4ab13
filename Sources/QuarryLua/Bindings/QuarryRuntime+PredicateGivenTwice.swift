import QuarryModel
import QuarryPredicates

/// `fetch{ "vacinacao", predicate = "UF == %@", "SP" }`: the value meant for the
/// placeholder sits where `fetch{}` reads a predicate (as `fetch("t", "UF == %@", "SP")`
/// takes it), so the request holds two predicates. Said as what was meant: the value
/// goes in `args`.
extension QuarryRuntime {
    static func predicateGivenTwice(explicit format: String?, listed: (format: String, arguments: [PredicateArgument])) -> LuaError {
        let value = listed.format
        if let format, format.contains("%"), listed.arguments.isEmpty, value.count <= 60,
            !value.contains(where: { $0.isWhitespace || "=<>!".contains($0) })
        {
            return LuaError(
                "'\(value)' after the entity is read as a predicate, beside predicate =; the predicate's values go in args: "
                    + "predicate = \(quoted(format)), args = { \(quoted(value)) }",
                operation: "fetch")
        }
        return LuaError("the predicate is given twice: in the list after the entity and as predicate =", operation: "fetch")
    }

    /// Text as a Lua string literal in a message (controls are escaped where the line is rendered).
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
