/// A script's line that Lua could not read and that reads as SQL (`quarry db -e 'select 1'`,
/// a pasted `SELECT …` in piped input): scripts stay Lua, as the contract says, and the
/// error says how SQL runs from one, where Lua alone said "syntax error near '1'".
enum SQLInScript {
    /// The failure `message` of loading `code`, with the way to run SQL from a script when
    /// the line it names reads as a SQL statement; else `message` unchanged.
    static func explained(_ message: String, in code: String) -> String {
        guard let number = lineNumber(message) else { return message }
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        guard number >= 1, number <= lines.count else { return message }
        let line = lines[number - 1].trimmingCharacters(in: .whitespaces)
        guard case .query(let query) = SQLAtPrompt.reading(line) else { return message }
        let statement = query.hasSuffix(";") ? String(query.dropLast()) : query
        // print(): a script prints nothing it is not told to, so sql() alone shows no rows.
        return message + "; a script is Lua: SQL runs there as print(sql(\(luaQuoted(statement)))), or alone as quarry FILE \"\(statement)\""
    }

    /// The line a Lua load error names (`(command line):1: …`, `stdin:2: …`).
    static func lineNumber(_ message: String) -> Int? {
        var rest = Substring(message)
        while let colon = rest.firstIndex(of: ":") {
            rest = rest[rest.index(after: colon)...]
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == ":" { return Int(digits) }
        }
        return nil
    }

    /// `text` as a Lua string literal, in the quote it does not hold.
    private static func luaQuoted(_ text: String) -> String {
        if !text.contains("\"") { return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\") + "\"" }
        if !text.contains("]]") { return "[[" + text + "]]" }
        return "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
