/// Tab on a key the predicate grammar cannot spell (`Type I`, with a space) inserts `%K`,
/// and this puts the key's name among the arguments, where that `%K` takes it, so the
/// call is whole: `count("t", "Ty<Tab>` becomes `count("t", "%K", "Type I")`, the cursor
/// after `%K`; `fetch{ "t", predicate = "Ty<Tab>` gets `args = { "Type I" }`; a line
/// already holding its arguments gets the name at the placeholder's place among them. Nil
/// when that place is not there to find (arguments for earlier placeholders not typed
/// yet): `%K` alone is inserted then.
struct SpacedKeyArgument {
    /// Where to insert, in UTF-8 bytes from the cursor, and what.
    let offset: Int
    let text: String

    /// `string` is the predicate being completed, `after` the line after the cursor.
    init?(key: String, in string: OpenString, after: String) {
        let name = LuaLiteral.string(key)
        let placeholders = Self.placeholders(in: string.text)
        let tableForm = string.field == "predicate"
        guard tableForm || string.field == nil, let call = OpenCall(string.code) else { return nil }
        guard let end = Self.closingQuote(in: after, quote: string.quote) else {
            // The predicate is still being typed: nothing comes after it yet.
            guard after.allSatisfy(\.isWhitespace), placeholders == 0 else { return nil }
            offset = 0
            let arguments = tableForm ? ", args = { \(name) }" : ", \(name)"
            text = String(string.quote) + arguments + call.closers
            return
        }
        let rest = after[after.index(after: end)...]
        let restStart = after.utf8.distance(from: after.startIndex, to: rest.startIndex)
        var list = rest
        var arguments: [Range<Substring.Index>]
        if tableForm {
            guard let open = Self.argsList(in: rest) else {
                // No `args` yet: one, after the predicate.
                guard placeholders == 0 else { return nil }
                offset = restStart
                text = ", args = { \(name) }"
                return
            }
            list = rest[rest.index(after: open)...]
            arguments = Self.segments(of: list)
            if arguments.count == 1, list[arguments[0]].allSatisfy(\.isWhitespace) { arguments = [] }
        } else {
            // The arguments after the predicate: `, a, b)`; before the first comma, nothing.
            let segments = Self.segments(of: list)
            guard let first = segments.first, list[first].allSatisfy(\.isWhitespace) else { return nil }
            arguments = Array(segments.dropFirst())
        }
        let bytes = { (index: Substring.Index) in restStart + rest.utf8.distance(from: rest.startIndex, to: index) }
        if placeholders < arguments.count {
            // Before the argument now in its place.
            var at = arguments[placeholders].lowerBound
            while at < list.endIndex, list[at].isWhitespace { at = list.index(after: at) }
            offset = bytes(at)
            text = name + ", "
        } else if placeholders == arguments.count {
            // After the last argument (or the predicate, or the list's `{`).
            var at = arguments.last?.upperBound ?? (tableForm ? list.startIndex : rest.startIndex)
            while let last = arguments.last, at > last.lowerBound, list[list.index(before: at)].isWhitespace { at = list.index(before: at) }
            offset = bytes(at)
            text = (arguments.isEmpty && tableForm ? " " : ", ") + name
        } else {
            return nil
        }
    }

    /// The text of a list from `text`'s start up to the bracket that closes it (or the
    /// end), split at commas outside strings and inner brackets.
    private static func segments(of text: Substring) -> [Range<Substring.Index>] {
        var segments: [Range<Substring.Index>] = []
        var start = text.startIndex
        var index = text.startIndex
        var depth = 0
        var quote: Character?
        while index < text.endIndex {
            let c = text[index]
            if let q = quote {
                if c == "\\" {
                    index = text.index(after: index)
                    if index == text.endIndex { break }
                } else if c == q {
                    quote = nil
                }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "(" || c == "{" || c == "[" {
                depth += 1
            } else if c == ")" || c == "}" || c == "]" {
                if depth == 0 { break }
                depth -= 1
            } else if c == ",", depth == 0 {
                segments.append(start..<index)
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        segments.append(start..<min(index, text.endIndex))
        return segments
    }

    /// Where `args = {` begins in the table after the predicate (at the `{`); nil when the
    /// table has no `args` field.
    private static func argsList(in text: Substring) -> Substring.Index? {
        guard let field = text.range(of: "args") else { return nil }
        var index = field.upperBound
        while index < text.endIndex, text[index].isWhitespace || text[index] == "=" { index = text.index(after: index) }
        return index < text.endIndex && text[index] == "{" ? index : nil
    }

    /// The quote that closes the string in `text` (escapes skipped); nil when it is open.
    private static func closingQuote(in text: String, quote: Character) -> String.Index? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "\\" {
                index = text.index(after: index)
                if index == text.endIndex { return nil }
            } else if text[index] == quote {
                return index
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// How many arguments the format text takes before the word: `%@`, `%K`, `%d`, `%i`,
    /// `%f`, `%s` (`%%` is a percent sign).
    static func placeholders(in text: String) -> Int {
        var count = 0
        var chars = text[...]
        while let percent = chars.firstIndex(of: "%") {
            let next = chars.index(after: percent)
            guard next < chars.endIndex else { break }
            if "@Kdifs".contains(chars[next]) { count += 1 }
            chars = chars[chars.index(after: next)...]
        }
        return count
    }
}
