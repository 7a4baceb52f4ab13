import QuarryFetch
import QuarryModel
import QuarryStore

extension QuarryRuntime {
    /// Says once a session, for each date column of Quarry's own tables that an SQL
    /// statement names, that the column holds Unix seconds, not text. A CSV's
    /// `1987-01-03` imported as a date is 536630400.0 there, so SQL written as for the
    /// CSV in sqlite3 answers wrongly without a word: `start_date >= '2001-01-01'` holds
    /// for no row (SQLite orders every number before text), `strftime('%Y', start_date)`
    /// reads the number as a Julian day and gives nil, and `min(birthday)` shows seconds.
    /// The note gives the SQL that reads them. Nothing when the statement already
    /// converts with `unixepoch`, or names no such column.
    func noteDatesInSQL(_ text: String) {
        guard !text.lowercased().contains("unixepoch") else { return }
        let words = ReadOnlyQuery.sqlWords(text).filter { !$0.callsFunction }.map { word in
            (word.text.split(separator: ".").last.map(String.init) ?? word.text).lowercased()
        }
        var columns: [String] = []
        var first: String?
        for entity in context.entities {
            let storage = context.mapped(entity)
            guard storage.layout == .quarry, words.contains(storage.nameInSQL.lowercased()) else { continue }
            for attribute in entity.attributes where attribute.type == .date && words.contains(attribute.name.lowercased()) {
                guard sqlDateNotices.insert("\(entity.name).\(attribute.name)").inserted else { continue }
                columns.append("\(entity.name).\(attribute.name)")
                if first == nil { first = attribute.name }
            }
        }
        guard let first else { return }
        let holds = columns.count == 1 ? "holds its dates" : "hold their dates"
        writeNotice(
            "note: \(columns.joined(separator: ", ")) \(holds) as Unix seconds, not text: in SQL, compare with unixepoch('2001-01-01') "
                + "and read with date(\(first), 'unixepoch') (predicates take dates as written: \"\(first) >= '2001-01-01'\")")
    }
}
