import Foundation
import QuarryModel

/// Another program's text column of dates in a form that is not ISO 8601 (`31/12/2021`,
/// `12/31/2021`, `March 28, 2026`): no `format()` reads it, so it stays text, and text
/// compares and sorts by its first characters, the day or the month, never in time. What
/// a refusal or a note says of it: the form seen, with an example, and which order of day
/// and month the values themselves show, never a guess.
public struct TextDateForm: Sendable, Equatable {
    /// The form, as a person writes it: `dd/mm/yyyy`, `mm/dd/yyyy`, `dd/mm/yyyy or
    /// mm/dd/yyyy` (no value tells), `Month d, yyyy`, `d Month yyyy`.
    public let form: String
    /// A value of the column in that form.
    public let example: String

    /// One line's worth: `dates written 01/02/2020 (dd/mm/yyyy or mm/dd/yyyy; no value
    /// says which), not ISO 8601`.
    public var described: String {
        let undecided = form.contains(" or ") ? "; no value says which" : ""
        return "dates written \(example) (\(form)\(undecided)), not ISO 8601"
    }

    /// The form every text of `texts` is in, nil when one is in none of them or when they
    /// are in different ones.
    static func detect(_ texts: [String]) -> TextDateForm? {
        guard let example = texts.first else { return nil }
        var firstOver12 = false
        var secondOver12 = false
        var separator: Character?
        var words: String?
        for text in texts {
            let t = text.trimmingCharacters(in: .whitespaces)
            if let (a, b, sep) = numericParts(t) {
                guard words == nil, separator == nil || separator == sep else { return nil }
                separator = sep
                firstOver12 = firstOver12 || a > 12
                secondOver12 = secondOver12 || b > 12
            } else if let form = wordForm(t) {
                guard separator == nil, words == nil || words == form else { return nil }
                words = form
            } else {
                return nil
            }
        }
        if let words { return TextDateForm(form: words, example: example) }
        guard let separator, !(firstOver12 && secondOver12) else { return nil }
        let s = String(separator)
        let day = "dd\(s)mm\(s)yyyy"
        let month = "mm\(s)dd\(s)yyyy"
        let form = firstOver12 ? day : secondOver12 ? month : "\(day) or \(month)"
        return TextDateForm(form: form, example: example)
    }

    /// `31/12/2021` as (31, 12, "/"): two fields of one or two digits and a year of four,
    /// split by `/`, `-` or `.`.
    private static func numericParts(_ text: String) -> (Int, Int, Character)? {
        for separator: Character in ["/", "-", "."] {
            let parts = text.split(separator: separator, omittingEmptySubsequences: false)
            guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
                parts[0].count <= 2, parts[1].count <= 2, parts[2].count == 4, let a = Int(parts[0]), let b = Int(parts[1]),
                (1...31).contains(a), (1...31).contains(b)
            else { continue }
            return (a, b, separator)
        }
        return nil
    }

    private static let months = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"
    ]

    /// `March 28, 2026` as `Month d, yyyy`; `28 March 2026` as `d Month yyyy`.
    private static func wordForm(_ text: String) -> String? {
        let words = text.replacingOccurrences(of: ",", with: " ").split(separator: " ")
        guard words.count == 3, words[2].count == 4, words[2].allSatisfy(\.isNumber) else { return nil }
        func isMonth(_ word: Substring) -> Bool { word.count >= 3 && months.contains(word.prefix(3).lowercased()) && word.allSatisfy(\.isLetter) }
        func isDay(_ word: Substring) -> Bool { (1...2).contains(word.count) && word.allSatisfy(\.isNumber) }
        if isMonth(words[0]), isDay(words[1]) { return "Month d, yyyy" }
        if isDay(words[0]), isMonth(words[1]) { return "d Month yyyy" }
        return nil
    }
}

extension ObjectContext {
    /// The form of dates a text column (another program's, or Quarry's own) holds when it is not
    /// ISO 8601 (every sampled value in one such form); nil otherwise.
    public func textDateForm(_ entity: EntityDescription, _ column: String) -> TextDateForm? {
        // Quarry's own tables too: a CSV's `10/13/1998` imported there stays text as well.
        let storage = mapped(entity)
        guard storage.keepsAnyType || storage.layout == .quarry, entity.attribute(named: column)?.type == .string else { return nil }
        let texts = sampledValues(entity, column).compactMap { value -> String? in
            if case .text(let s) = value { return s }
            return nil
        }
        return TextDateForm.detect(texts)
    }
}
