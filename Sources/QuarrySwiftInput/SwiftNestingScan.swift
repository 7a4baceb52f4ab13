import QuarryPredicates

/// A linear pass over Swift source, before swift-syntax sees it, that refuses text nesting
/// deeper than a format string may (`PredicateParser.maximumDepth`). swift-syntax's parser
/// recurses once per bracket and backtracks over nested brackets (exponential time), and
/// every visit of its tree recurses once per level, so depth is bounded here, where it is
/// cheap. A level is an open `(`, `[` or `{` (and an interpolation in a string), or a step
/// of a postfix chain (`.name`, postfix `?` and `!`), which swift-syntax also nests; an
/// operator, `,`, `:` or `;` ends a chain; so is a `<` that may open generic arguments
/// (`a<b`), which swift-syntax looks ahead through recursively, and a ternary's ` ? `
/// until its `:` (within one bracket). String literals and comments hold no levels.
///
/// Inside `[`, swift-syntax also tries each nested `[` and `(` as a type, twice (an inline
/// array's `[3 of Int]`, then `[Int]`): time doubles with each level. Quarry reads lists of
/// values and tuples of bytes only, so brackets nest at most `maximumTypeRun` deep there.
struct SwiftNestingScan {
    /// How deep `[` and `(` may nest from a `[` on (`[Data([1, 2])]` is 3).
    static let maximumTypeRun = 4

    private enum Frame {
        /// A bracket, with the length of the postfix chain it stands in (a call's
        /// arguments continue the chain of its callee: `a.b(c).d`), and how many `[` and
        /// `(` it closes a run of since a `[` (0 when none is open outside it).
        case bracket(chain: Int, run: Int, ternary: Int, square: Bool)
        /// `\(` inside a string, with the string to go back to.
        case interpolation(chain: Int, ternary: Int, quotes: Int, hashes: Int)
    }

    /// Throws at the first character past `PredicateParser.maximumDepth` levels.
    static func check(_ source: String, columns: SourceColumns) throws {
        let bytes = Array(source.utf8)
        var stack: [Frame] = []
        var total = 0
        var chain = 0
        var angles = 0
        var ternary = 0
        var i = 0
        /// The last byte before `i` that is not white space.
        var previous: UInt8 = 0
        func tooDeep(_ offset: Int) -> PredicateError {
            PredicateParser.nestingError(column: columns.column(ofUTF8: offset))
        }
        func isName(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x60 || b == 0x24 || b >= 0x80
        }
        func run() -> Int {
            if case .bracket(_, let run, _, _)? = stack.last { return run }
            return 0
        }
        func deeper(_ offset: Int) throws {
            if total + chain + angles + ternary > PredicateParser.maximumDepth { throw tooDeep(offset) }
        }
        while i < bytes.count {
            let b = bytes[i]
            let before = previous
            if i % 65_536 == 0 { try SwiftPredicateTranslator.stopIfAsked(column: nil) }
            // A word after a word (`try try x`, `await`, `consume`): prefix keywords nest too.
            if isName(b), i > 0, !isName(bytes[i - 1]), isName(previous) {
                chain += 1
                try deeper(i)
            }
            if b != UInt8(ascii: " "), b != UInt8(ascii: "\t"), b != 0x0A, b != 0x0D { previous = b }
            switch b {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                let outer = run()
                let run = b == UInt8(ascii: "{") ? 0 : b == UInt8(ascii: "[") ? outer + 1 : outer > 0 ? outer + 1 : 0
                if run > maximumTypeRun {
                    throw PredicateError(
                        .tooDeep,
                        "[ ] and ( ) nest more than \(maximumTypeRun) levels deep inside [ ]: Quarry reads lists of values, not lists of lists",
                        column: columns.column(ofUTF8: i))
                }
                stack.append(.bracket(chain: chain, run: run, ternary: ternary, square: b == UInt8(ascii: "[")))
                total += 1 + chain + ternary
                chain = 0
                ternary = 0
                try deeper(i)
                i += 1
            case UInt8(ascii: "<"):
                // `a<b` may open generic arguments; `a < b`, `a<1` and `a<$0` do not.
                if i > 0, i + 1 < bytes.count, isName(bytes[i - 1]),
                    isName(bytes[i + 1]) || bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "("),
                    !(bytes[i + 1] >= 0x30 && bytes[i + 1] <= 0x39), bytes[i + 1] != UInt8(ascii: "$")
                {
                    angles += 1
                    try deeper(i)
                }
                chain = 0
                i += 1
            case UInt8(ascii: ">"):
                // `->` closes no generic arguments.
                if i == 0 || bytes[i - 1] != UInt8(ascii: "-") { angles = max(0, angles - 1) }
                chain = 0
                i += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                i += 1
                guard let frame = stack.popLast() else {
                    chain = 0
                    continue
                }
                switch frame {
                case .bracket(let outer, _, let outerTernary, _):
                    total -= 1 + outer + outerTernary
                    (chain, ternary) = (outer, outerTernary)
                case .interpolation(let outer, let outerTernary, let quotes, let hashes):
                    total -= 1 + outer + outerTernary
                    (chain, ternary) = (outer, outerTernary)
                    // Back inside the string: on to its end or its next interpolation.
                    i = try skipString(
                        bytes, from: i, quotes: quotes, hashes: hashes, stack: &stack, total: &total, chain: &chain, ternary: &ternary,
                        tooDeep: tooDeep)
                }
            case UInt8(ascii: "."):
                if i + 1 < bytes.count, isName(bytes[i + 1]) {
                    chain += 1
                    try deeper(i)
                } else {
                    chain = 0
                }
                i += 1
            case UInt8(ascii: "?"), UInt8(ascii: "!"):
                // Postfix (`a?`, `a!`, `f()!`) after a name or a bracket; else an operator.
                if i > 0, isName(bytes[i - 1]) || [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "!")].contains(bytes[i - 1])
                {
                    chain += 1
                    try deeper(i)
                } else {
                    // ` ? ` opens a ternary, which nests until its `:`.
                    if b == UInt8(ascii: "?"), i > 0, [UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0A, 0x0D].contains(bytes[i - 1]) {
                        ternary += 1
                        try deeper(i)
                    }
                    chain = 0
                }
                i += 1
            case UInt8(ascii: ","):
                // An empty element (`f(, , ...)`): swift-syntax's diagnostics for a run of
                // them take time growing with its square; no Swift has one.
                if [UInt8(ascii: ","), UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: ":")].contains(before) {
                    throw PredicateError(.syntax, "expected a value before ','", column: columns.column(ofUTF8: i))
                }
                chain = 0
                i += 1
            case UInt8(ascii: ":"):
                // Directly inside `[`, a `:` that ends no ternary makes a dictionary, which
                // Quarry does not read; swift-syntax's recovery from `[a: b: c: ...]` takes
                // time growing with the square of its length.
                if ternary == 0, i > 0, bytes[i - 1] != UInt8(ascii: ":"), squareInnermost(stack) {
                    throw PredicateError(
                        .unsupported, "a dictionary [key: value] has no #Predicate form Quarry reads", column: columns.column(ofUTF8: i))
                }
                ternary = max(0, ternary - 1)
                chain = 0
                i += 1
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "/"):
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
            case UInt8(ascii: "/") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*"):
                // Swift's block comments nest.
                var open = 0
                repeat {
                    if bytes[i] == UInt8(ascii: "/"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "*") {
                        open += 1
                        i += 2
                    } else if bytes[i] == UInt8(ascii: "*"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "/") {
                        open -= 1
                        i += 2
                    } else {
                        i += 1
                    }
                } while open > 0 && i < bytes.count
            case UInt8(ascii: "\""), UInt8(ascii: "#"):
                var hashes = 0
                var j = i
                while j < bytes.count, bytes[j] == UInt8(ascii: "#") {
                    hashes += 1
                    j += 1
                }
                guard j < bytes.count, bytes[j] == UInt8(ascii: "\"") else {
                    // `#if` blocks nest in swift-syntax's lookahead, which rescans them; a
                    // #Predicate holds none, so none is read.
                    var k = j
                    while k < bytes.count, isName(bytes[k]) { k += 1 }
                    if hashes == 1, ["if", "elseif", "else", "endif"].contains(String(decoding: bytes[j..<k], as: UTF8.self)) {
                        throw PredicateError(
                            .unsupported, "#\(String(decoding: bytes[j..<k], as: UTF8.self)) has no place in a #Predicate or the lets before it",
                            column: columns.column(ofUTF8: i))
                    }
                    chain = 0
                    i = max(j, i + 1)
                    continue
                }
                var quotes = 1
                if j + 2 < bytes.count, bytes[j + 1] == UInt8(ascii: "\""), bytes[j + 2] == UInt8(ascii: "\"") { quotes = 3 }
                i = try skipString(
                    bytes, from: j + quotes, quotes: quotes, hashes: hashes, stack: &stack, total: &total, chain: &chain, ternary: &ternary,
                    tooDeep: tooDeep)
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                // `a\n  .b` continues a chain.
                i += 1
            default:
                if !isName(b) { chain = 0 }
                i += 1
            }
        }
    }

    /// Whether the innermost open bracket is a `[`.
    private static func squareInnermost(_ stack: [Frame]) -> Bool {
        if case .bracket(_, _, _, let square)? = stack.last { return square }
        return false
    }

    /// Skips a string's text from `start` (after its opening quotes) to just past its
    /// closing quotes, or into an interpolation (`\(`, `\#(` in a raw string), which opens
    /// a level whose `)` comes back here. Returns the offset to go on from.
    private static func skipString(
        _ bytes: [UInt8], from start: Int, quotes: Int, hashes: Int, stack: inout [Frame],
        total: inout Int, chain: inout Int, ternary: inout Int, tooDeep: (Int) -> PredicateError
    ) throws -> Int {
        var i = start
        func hashesFollow(_ at: Int) -> Bool {
            guard at + hashes <= bytes.count else { return false }
            return bytes[at..<(at + hashes)].allSatisfy { $0 == UInt8(ascii: "#") }
        }
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\\"), hashesFollow(i + 1) {
                let after = i + 1 + hashes
                if after < bytes.count, bytes[after] == UInt8(ascii: "(") {
                    stack.append(.interpolation(chain: chain, ternary: ternary, quotes: quotes, hashes: hashes))
                    total += 1 + chain + ternary
                    chain = 0
                    ternary = 0
                    if total > PredicateParser.maximumDepth { throw tooDeep(after) }
                    return after + 1
                }
                i = after + 1
                continue
            }
            if b == UInt8(ascii: "\""), quotes == 1 || (i + 2 < bytes.count && bytes[i + 1] == b && bytes[i + 2] == b), hashesFollow(i + quotes) {
                chain = 0
                return i + quotes + hashes
            }
            // A one-line string ends at its line's end (swift-syntax reports the error).
            if quotes == 1, hashes == 0, b == 0x0A { return i + 1 }
            i += 1
        }
        return i
    }
}
