extension QuarryRuntime {
    /// `year / 10 * 10`, SQL's way to a decade, is the year again here: `/` divides as
    /// reals, as NSExpression's `divide:by:` does (1937 / 10 is 193.7), so a grouping by it
    /// gives one group a year without a word (trial 29). Said once for each property that
    /// divides and multiplies back by the same whole number, with the property that rounds
    /// down as was meant.
    func noteRealDivision(_ properties: [String]) {
        for text in properties {
            guard let rounded = Self.flooredBuckets(text), realDivisionNotices.insert(text).inserted else { continue }
            writeNotice("note: / divides as reals here (NSExpression's divide:by:), so '\(text)' is not rounded down; '\(rounded)' is")
        }
    }

    /// `text` with its last `X / N * N` (N a whole number, X a key path first in its
    /// product) written `floor(X / N) * N`; nil when there is none.
    static func flooredBuckets(_ text: String) -> String? {
        let characters = Array(text)
        var out = characters
        var found = false
        var i = characters.count - 1
        while i >= 0 {
            defer { i -= 1 }
            guard characters[i] == "/" else { continue }
            func number(from start: Int) -> (String, Int)? {
                var j = start
                while j < characters.count, characters[j] == " " { j += 1 }
                let first = j
                while j < characters.count, characters[j].isASCII, characters[j].isNumber { j += 1 }
                return j > first ? (String(characters[first..<j]), j) : nil
            }
            guard let (divisor, afterDivisor) = number(from: i + 1) else { continue }
            var k = afterDivisor
            while k < characters.count, characters[k] == " " { k += 1 }
            guard k < characters.count, characters[k] == "*", let (factor, afterFactor) = number(from: k + 1), factor == divisor,
                afterFactor == characters.count || !(characters[afterFactor] == "." || characters[afterFactor].isLetter)
            else { continue }
            // The operand before the `/`: a key path (`release_date.year`), standing first
            // in a product (`a * 2 / 10 * 10` divides the product, not 2).
            var start = i - 1
            while start >= 0, characters[start] == " " { start -= 1 }
            guard start >= 0 else { continue }
            var begin = start
            while begin >= 0, characters[begin].isLetter || characters[begin].isNumber || "_.#@".contains(characters[begin]) { begin -= 1 }
            var before = begin
            while before >= 0, characters[before] == " " { before -= 1 }
            guard before < 0 || "(,+-".contains(characters[before]) else { continue }
            begin += 1
            guard begin <= start, characters[begin].isLetter || characters[begin] == "#" || characters[begin] == "_" else { continue }
            let operand = String(characters[begin...start])
            out.replaceSubrange(begin..<afterDivisor, with: Array("floor(\(operand) / \(divisor))"))
            found = true
            break
        }
        return found ? String(out) : nil
    }
}
