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
        let words = Self.columnWords(text)
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

    /// Says once a session, when `sql()` binds a date, that it goes in as Unix seconds,
    /// where the statement names a date column of another program's SQLite file that keeps
    /// its dates otherwise: as text (`payment_date >= ?` with `date("2005-08-01")` compares
    /// text with a number, which SQLite orders first, so it holds for every row), as another
    /// count, or as a Core Data store's seconds since 2001. The answer is wrong without a
    /// word otherwise; the note says what to bind.
    func noteDateArguments(_ text: String, _ arguments: [Value]) {
        let dates = arguments.compactMap { value -> Double? in
            if case .date(let seconds) = value { return seconds }
            return nil
        }
        guard let seconds = dates.first else { return }
        let words = Self.columnWords(text)
        for entity in context.entities {
            let storage = context.mapped(entity)
            // A Core Data entity is read through a view of Quarry's, its table Z and its name.
            let table = storage.storeNumber == nil ? storage.nameInSQL : "Z" + entity.name
            guard !storage.columnsHoldTheirTypes, words.contains(table.lowercased()) else { continue }
            for attribute in entity.attributes where attribute.type == .date {
                let kept: String
                let bind: String
                switch storage.layout {
                case .foreignTable, .foreignView:
                    guard words.contains(attribute.name.lowercased()) else { continue }
                    if let scale = storage.numericDates[attribute.name] {
                        guard scale != .unixSeconds else { continue }
                        kept = "as numbers in another unit"
                        bind = "compare with the column read as a date, \(attribute.name) in a fetch's predicate, or bind the number in its unit"
                    } else {
                        kept = "as text"
                        bind = "bind the text, '\(Value.iso8601(seconds).prefix(10))', or compare unixepoch(\(attribute.name)) with the date"
                    }
                case .coreData:
                    guard words.contains("z" + attribute.name.lowercased()) else { continue }
                    kept = "as seconds since 2001-01-01 (Core Data's dates)"
                    bind = "bind d - date(978307200) for a date d"
                default:
                    continue
                }
                guard sqlDateNotices.insert("argument \(entity.name).\(attribute.name)").inserted else { continue }
                writeNotice(
                    "note: sql() binds a date as Unix seconds (\(Value.format(seconds))), and \(entity.name).\(attribute.name) holds its "
                        + "dates \(kept), so the two do not compare as dates: \(bind)")
                return
            }
        }
    }

    /// The words of `text` that may name a table or a column, lowercased, without a qualifier.
    private static func columnWords(_ text: String) -> [String] {
        ReadOnlyQuery.sqlWords(text).filter { !$0.callsFunction }.map { word in
            (word.text.split(separator: ".").last.map(String.init) ?? word.text).lowercased()
        }
    }
}
