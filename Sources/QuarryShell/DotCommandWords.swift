/// A dot-command's line split into words as the `sqlite3` shell splits it: at spaces and
/// tabs, except inside quotes. `"..."` and `'...'` make one word without its quotes, so
/// `.schema "Order Details"` names the entity `Order Details` and `.read 'my file.lua'`
/// a path with a space. A quote left open runs to the end of the line.
enum DotCommandWords {
    static func split(_ line: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        for c in line {
            if let open = quote {
                if c == open { quote = nil } else { current.append(c) }
                continue
            }
            switch c {
            case " ", "\t":
                if inWord {
                    words.append(current)
                    current = ""
                    inWord = false
                }
            case "\"", "'":
                quote = c
                inWord = true
            default:
                current.append(c)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
