import QuarryModel
import QuarryPredicates
import QuarryStore

/// A column of no declared type holding numbers written as text (a GTFS `calendar`'s
/// `saturday` = '1'): `saturday == 1` counted 0 and `saturday > 0` every row, as `sqlite3`
/// answers, with no word of why. The predicate runs as written (SQLite's comparison, and a
/// column may mix numbers and text on purpose); this says once for each such column what
/// SQLite does with the text, and the form that compares what the person meant.
extension QuarryRuntime {
    func noteNumbersWrittenAsText(_ predicate: Predicate, entity: String?) {
        let comparisons = predicate.keyComparisons.filter { $0.numbers != nil }
        guard !comparisons.isEmpty, let entity, let description = try? context.entity(named: entity) else { return }
        for comparison in comparisons {
            guard description.attribute(named: comparison.key)?.type == .string,
                numberTextNotices.insert("\(description.name).\(comparison.key)").inserted,
                let sample = context.numberWrittenAsText(description, comparison.key)
            else { continue }
            writeNotice("note: " + Self.numberTextNote(comparison, entity: description.name, sample: sample))
        }
    }

    static func numberTextNote(_ comparison: KeyComparison, entity: String, sample: String) -> String {
        let key = PredicateParser.reserved.contains(comparison.key.uppercased()) ? "#" + comparison.key : comparison.key
        let head = "\(entity).\(comparison.key) declares no type and holds numbers written as text ('\(sample)'); "
        let numbers = comparison.values.map(text(of:))
        let written = comparison.written(numbers, key: key)
        switch comparison.op {
        case .equal, .notEqual, .in:
            let asText = comparison.written(numbers.map { "'" + $0 + "'" }, key: key)
            return head + "SQLite never finds text equal to a number, so \(written) compares no text cell as equal: \(asText) compares the text"
        default:
            let cast = "CAST(\(writtenIdentifier(comparison.key)) AS REAL)"
            let condition =
                comparison.op == .between && numbers.count == 2
                ? "\(cast) BETWEEN \(numbers[0]) AND \(numbers[1])" : "\(cast) \(comparison.op.rawValue) \(numbers[0])"
            let query = "SELECT count(*) FROM \(writtenIdentifier(entity)) WHERE \(condition)"
            return head + "SQLite orders text after every number, so \(written) compares every text cell as larger: "
                + "sql(\(LuaLiteral.string(query))) compares them as numbers"
        }
    }

    /// A number as its text is written (`true` as SQLite stores it, 1).
    private static func text(of value: Value) -> String {
        if case .bool(let b) = value { return b ? "1" : "0" }
        return value.displayString
    }
}
