/// The call a position in a line is inside of: the function named before the innermost
/// bracket left open (`relate(` or `fetch{`) and which of its arguments the position is
/// in, counted by the commas at that bracket's depth (strings and inner brackets skipped).
/// What completion reads to offer entity names where a call takes one.
struct OpenCall {
    /// The function's name (`relate`); empty when the bracket follows no name.
    let function: String
    /// 1 for the first argument.
    let argument: Int
    /// The bracket: `(` or `{`.
    let bracket: Character
    /// The name is a method's or a table's field (`Item:fetch(`, `t.count(`), not a global.
    let isMember: Bool
    /// What closes every bracket left open, innermost first (`)`, ` }`).
    let closers: String

    /// The call open at the end of `code`; nil when no bracket is open.
    init?(_ code: String) {
        var open: [(bracket: Character, index: String.Index, commas: Int)] = []
        var quote: Character?
        var index = code.startIndex
        while index < code.endIndex {
            let c = code[index]
            if let q = quote {
                if c == "\\" {
                    index = code.index(after: index)
                    if index == code.endIndex { break }
                } else if c == q {
                    quote = nil
                }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "(" || c == "{" || c == "[" {
                open.append((c, index, 0))
            } else if c == ")" || c == "}" || c == "]" {
                if !open.isEmpty { open.removeLast() }
            } else if c == ",", !open.isEmpty {
                open[open.count - 1].commas += 1
            }
            index = code.index(after: index)
        }
        guard let innermost = open.last, innermost.bracket != "[" else { return nil }
        var before = code[..<innermost.index]
        while before.last == " " { before.removeLast() }
        let name = before.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        function = String(name.reversed())
        isMember = [":", "."].contains(before.dropLast(name.count).last)
        argument = innermost.commas + 1
        bracket = innermost.bracket
        closers = open.reversed().map { $0.bracket == "(" ? ")" : $0.bracket == "{" ? " }" : "]" }.joined()
    }
}
