/// Text as Lua source writes it, for messages that show the call that works
/// (`fetch{ "Item", ... }`): one rendering, so every message quotes the same way.
enum LuaLiteral {
    /// `text` as a double-quoted Lua string literal.
    static func string(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
