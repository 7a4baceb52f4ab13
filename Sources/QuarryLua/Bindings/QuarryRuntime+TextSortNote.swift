import Foundation
import QuarryFetch
import QuarryModel
import QuarryStore

/// A text column that holds numbers (a census file's `sd_pop_2010`, written as text)
/// sorts as text, in SQL and in memory alike: `sort = "-sd_pop_2010"` puts 99967 before
/// 9996 and 8175133 far below, as sqlite3's `ORDER BY` does, and the largest districts
/// were not first without a word, where a predicate comparing the column with a number
/// is refused saying so. The order stays SQLite's; where the first rows shown hold only
/// numbers and are out of their numbers' order, one note says so and names the query
/// that sorts them as numbers.
extension QuarryRuntime {
    func noteTextSortedNumbers(_ results: FetchResults, _ request: FetchRequest) {
        noteTextSortedNumbers(request) { key in
            var values: [Value] = []
            for i in 0..<min((try? results.count()) ?? 0, 50) {
                guard let object = try? results.object(at: i), let value = try? object.value(forKey: key) else { return nil }
                values.append(value)
            }
            return values
        }
    }

    /// The same for rows of properties (`properties = { "Name", "IndepYear" }`), sorted
    /// by one of them: the order is the same, and was said for objects only.
    func noteTextSortedNumbers(_ rows: DictionaryRows, _ request: FetchRequest) {
        noteTextSortedNumbers(request) { key in
            guard let column = rows.columns.firstIndex(of: key) else { return nil }
            return rows.rows.prefix(50).map { $0[column] }
        }
    }

    /// `firstValues(key)`: the sort key's values in the first rows shown, nil when unknown.
    private func noteTextSortedNumbers(_ request: FetchRequest, firstValues: (String) -> [Value]?) {
        guard let sort = request.sortDescriptors.first, !sort.key.contains("."),
            let entity = try? context.entity(named: request.entityName),
            entity.attribute(named: sort.key)?.type == .string, context.mapped(entity).isForeign,
            textSortNotices.insert("\(request.entityName).\(sort.key)").inserted
        else { return }
        var numbers: [(text: String, value: Double)] = []
        for value in firstValues(sort.key) ?? [] {
            guard case .text(let text) = value else { continue }
            // An empty text (a file's blank for none) sorts first as text does; the numbers decide.
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let number = Double(trimmed), number.isFinite else {
                textSortNotices.remove("\(request.entityName).\(sort.key)")
                return
            }
            numbers.append((text, number))
        }
        // The first pair out of the numbers' order, as the sort runs.
        guard numbers.count >= 2,
            let i = numbers.indices.dropLast().first(where: {
                sort.ascending ? numbers[$0].value > numbers[$0 + 1].value : numbers[$0].value < numbers[$0 + 1].value
            })
        else {
            textSortNotices.remove("\(request.entityName).\(sort.key)")
            return
        }
        let direction = sort.ascending ? "" : " DESC"
        let query = "SELECT * FROM \(writtenIdentifier(entity.name)) ORDER BY CAST(\(writtenIdentifier(sort.key)) AS REAL)\(direction)"
        writeNotice(
            "note: \(sort.key) is text, so it sorts as text (\(numbers[i].text) before \(numbers[i + 1].text)); "
                + "sql(\(LuaLiteral.string(query))) sorts it as numbers")
    }
}
