import Foundation
import QuarryStore

/// BEGINSWITH, ENDSWITH, CONTAINS, LIKE and MATCHES, as one piece of Swift that both the
/// SQLite functions and the in-memory evaluator call, so they cannot disagree.
/// Without options, strings compare by their UTF-8 bytes, as SQLite's BINARY collation;
/// with `[c]` or `[d]`, by their folds, which are composed (`PredicateFunctions.fold`).
public enum StringMatching {
    public static func matches(_ op: ComparisonOperator, _ text: String, _ pattern: String, _ options: ComparisonOptions) -> Bool {
        let text = options.isEmpty ? text : PredicateFunctions.fold(text, options)
        let folded = options.isEmpty ? pattern : PredicateFunctions.fold(pattern, options)
        switch op {
        case .beginsWith: return Array(text.utf8).starts(with: Array(folded.utf8))
        case .endsWith: return Array(text.utf8.reversed()).starts(with: Array(folded.utf8.reversed()))
        // NSString's search finds no empty string (`range(of: "")` is not found), so
        // CONTAINS "" is false, as Apple's grammar answers it; text_match.c agrees.
        case .contains: return !folded.isEmpty && contains(Array(text.utf8), Array(folded.utf8))
        case .like: return like(Array(text.unicodeScalars), Array(folded.unicodeScalars))
        case .matches:
            let range = NSRange(text.startIndex..., in: text)
            // The whole text, as ICU's matches() that NSPredicate calls: the search backtracks
            // until a match ends at the end (`a|ab` matches "ab", `a*?` matches "aaa"), where
            // the first match from the start, compared with the whole, would be "a" and "".
            if let whole = wholeRegex(pattern, options) {
                return whole.firstMatch(in: text, options: [.anchored, .withoutAnchoringBounds], range: range) != nil
            }
            guard let regex = regex(pattern, options) else { return false }
            return regex.firstMatch(in: text, options: [.anchored, .withoutAnchoringBounds], range: range).map { $0.range == range } ?? false
        default: return false
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
        }
        return false
    }

    /// `*` is any run of characters, `?` exactly one, `\` makes the next one literal.
    private static func like(_ text: [Unicode.Scalar], _ pattern: [Unicode.Scalar]) -> Bool {
        var t = 0
        var p = 0
        var star: Int? = nil
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "\\", p + 1 < pattern.count, pattern[p + 1] == text[t] {
                t += 1
                p += 2
            } else if p < pattern.count, pattern[p] != "*", pattern[p] != "\\", pattern[p] == "?" || pattern[p] == text[t] {
                t += 1
                p += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let s = star {
                p = s + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    /// Compiled patterns by options and text. Locked: SQLite calls MATCHES on the thread
    /// of the connection's queue, and tests evaluate in parallel (an unlocked dictionary
    /// handed one pattern's expression to another).
    /// Keyed by the pattern's bytes: Swift's String equality is canonical, so "é" and
    /// "e\u{301}" were one key, and whichever came first answered for both.
    // Unsafe only to the compiler: every read and write holds `regexLock`.
    nonisolated(unsafe) private static var regexCache: [RegexKey: NSRegularExpression?] = [:]
    private static let regexLock = NSLock()
    private struct RegexKey: Hashable { let options: Int, whole: Bool, pattern: [UInt8] }

    /// The compiled expression for MATCHES (ICU syntax), or nil when it does not compile.
    public static func regex(_ pattern: String, _ options: ComparisonOptions) -> NSRegularExpression? {
        compiled(pattern, options, whole: false)
    }

    /// The pattern as a group that must end at the text's end (`(?:pattern)\z`), for a
    /// pattern that compiles alone; nil when no wrapping compiles, which falls back to
    /// comparing the first match with the whole text.
    private static func wholeRegex(_ pattern: String, _ options: ComparisonOptions) -> NSRegularExpression? {
        regex(pattern, options) == nil ? nil : compiled(pattern, options, whole: true)
    }

    /// How the group may close: plainly; after `\E`, when a `\Q` would quote the closing
    /// parenthesis; after a newline, when a `(?x)` comment would swallow it (the newline
    /// ends the comment, and free-spacing mode ignores it).
    private static func wholeEnds(_ source: String) -> [String] {
        var ends = [")\\z"]
        if source.contains("\\Q") { ends.append("\\E)\\z") }
        if source.contains("#"), hasFreeSpacingFlag(source) { ends.append("\n)\\z") }
        return ends
    }

    /// Whether a `(?x)`, `(?ix)`, `(?x:` ... turns free-spacing mode on somewhere.
    private static func hasFreeSpacingFlag(_ source: String) -> Bool {
        let scalars = Array(source.unicodeScalars)
        for i in scalars.indices.dropLast() where scalars[i] == "(" && scalars[i + 1] == "?" {
            var j = i + 2
            while j < scalars.count, ("a"..."z").contains(scalars[j]) || ("A"..."Z").contains(scalars[j]) {
                if scalars[j] == "x" { return true }
                j += 1
            }
        }
        return false
    }

    private static func compiled(_ pattern: String, _ options: ComparisonOptions, whole: Bool) -> NSRegularExpression? {
        let key = RegexKey(options: options.rawValue, whole: whole, pattern: Array(pattern.utf8))
        if let cached = regexLock.withLock({ regexCache[key] }) { return cached }
        var regexOptions: NSRegularExpression.Options = []
        if options.contains(.caseInsensitive) { regexOptions.insert(.caseInsensitive) }
        let source = options.contains(.diacriticInsensitive) ? PredicateFunctions.fold(pattern, [.diacriticInsensitive]) : pattern
        let regex =
            whole
            ? wholeEnds(source).lazy.compactMap { try? NSRegularExpression(pattern: "(?:" + source + $0, options: regexOptions) }.first
            : try? NSRegularExpression(pattern: source, options: regexOptions)
        regexLock.withLock {
            if regexCache.count > 512 { regexCache = [:] }
            regexCache[key] = .some(regex)
        }
        return regex
    }
}
