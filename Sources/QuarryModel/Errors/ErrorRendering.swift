/// The one place errors become text. Rendering order:
///
///     [operation: ][path[:line[:column]]: ]message[ (did you mean 'suggestion'?)][ at column N][; remedy]
///
/// e.g. `predicate: unknown key path 'titel' on entity Item (did you mean 'title'?) at column 1`
/// or `import: data.csv:3: expected 2 fields, got 3`. The result is one line whatever the
/// parts hold (control characters and line separators are escaped as Lua writes them)
/// and at most `maximumRenderedLength` characters: each part is bounded on its own, so a
/// 1 MB name cannot push the operation, place or suggestion out of the line.
public enum ErrorRendering {
    /// The longest line the renderer makes, in Unicode scalars. It leaves room under
    /// `maximumLineLength` for the script position Lua puts in front (`t.lua:12: `), so
    /// the line-level bound never cuts a rendered error a second time.
    public static let maximumRenderedLength = 900
    /// The longest line any error message reaches a person as (see `oneLine(_: String)`).
    public static let maximumLineLength = 1_000

    /// Each part's share of the line. The fixed words around them (": ", " at column ",
    /// " (did you mean '…'?)", "; ", two line/column numbers) take at most 98 more.
    /// A remedy holds code to paste (`format("shows", "date", "2021-01-01") makes it a
    /// date`), so it is not cut short of it.
    static let operationLimit = 60, pathLimit = 160, messageLimit = 360, suggestionLimit = 60, remedyLimit = 160

    /// The error as one line, from its parts.
    public static func oneLine(_ error: some QuarryError) -> String {
        var line = ""
        if let operation = error.operation, !operation.isEmpty {
            line += part(operation, limit: operationLimit) + ": "
        }
        if case .file(let path, let lineNumber, let column)? = error.location {
            line += part(path, limit: pathLimit)
            if let lineNumber { line += ":\(lineNumber)" }
            if lineNumber != nil, let column { line += ":\(column)" }
            line += ": "
        }
        line += part(error.message, limit: messageLimit)
        if let suggestion = error.suggestion {
            line += " (did you mean '" + part(suggestion, limit: suggestionLimit) + "'?)"
        }
        if case .column(let column)? = error.location {
            line += " at column \(column)"
        }
        if let remedy = error.remedy, !remedy.isEmpty {
            line += "; " + part(remedy, limit: remedyLimit)
        }
        return line
    }

    /// Any message as one line of at most `maximumLineLength` characters: for text that
    /// is already a message (Lua's own errors, a re-raised one) rather than parts.
    public static func oneLine(_ message: String) -> String {
        shortened(said(message), limit: maximumLineLength)
    }

    /// One part: said, then bounded, so the bound holds for what is printed.
    package static func part(_ text: String, limit: Int) -> String {
        shortened(said(text), limit: limit)
    }

    /// Text as an error or a note repeats it: escaped, and without the secrets of any
    /// server's address in it (a PostgreSQL URL's password), whatever put the address
    /// there (a path that was no file, a script's own message).
    public static func said(_ text: String) -> String {
        escaped(URLSecrets.withoutPasswords(in: text))
    }

    /// Control characters and line separators as Lua escapes them in source (`\n`, `\0`,
    /// `\27`, `\u{2028}`): a name holding them stays readable and the line stays one.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        return escaping(text) { scalar in
            switch scalar {
            case "\n": return "\\n"
            case "\r": return "\\r"
            case "\t": return "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: return "\\" + String(scalar.value)
            case _ where needsEscape(scalar): return "\\u{" + String(scalar.value, radix: 16) + "}"
            default: return nil
            }
        }
    }

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: each would
    /// break the line (or the terminal) where it is printed.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// Text longer than `limit` scalars keeps its start and its end (where a position or
    /// the entity is said) and says how much of the middle was left out: two thirds
    /// before, one third after. For the line limit of 1,000 that is 600 and 300, as
    /// messages have been shortened from the start.
    public static func shortened(_ text: String, limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let scalars = text.unicodeScalars
        let count = scalars.count
        guard count > limit else { return text }
        // The marker takes at most 45 characters; what is kept leaves room for it.
        let kept = min(limit * 9 / 10, limit - 45)
        let head = kept * 2 / 3
        let tail = kept - head
        return String(String.UnicodeScalarView(scalars.prefix(head)))
            + " ... (\(count - kept) characters left out) ... "
            + String(String.UnicodeScalarView(scalars.suffix(tail)))
    }
}
