import Foundation

/// A file named where a query's table goes, as the DuckDB shell reads one (`SELECT * FROM
/// 'taxis.csv'`, `FROM read_csv('taxis.csv')`): SQLite takes the quoted name for a table's
/// and says `no such table: taxis.csv`, which tells a DuckDB user nothing of how a file is
/// read here. That failure is answered with `import()`, which reads the file into an entity.
extension SQLAtPrompt {
    /// A quoted name after FROM or JOIN, alone or as the argument of a DuckDB reader
    /// (`read_csv`, `read_json_auto`, …).
    private static let fileTablePattern = try? NSRegularExpression(
        pattern: #"\b(?:FROM|JOIN)\s+(?:(read_[A-Za-z_]+)\s*\(\s*)?(['"])([^'"]+)\2"#, options: [.caseInsensitive])

    /// The file `query` reads as a table (a quoted name holding a `.` or a `/`, or any
    /// quoted name a `read_…` call takes) and the reader it names, if any; nil when it
    /// reads none.
    static func fileTable(_ query: String) -> (path: String, reader: String?)? {
        let range = NSRange(query.startIndex..., in: query)
        guard let match = fileTablePattern?.firstMatch(in: query, range: range),
            let pathRange = Range(match.range(at: 3), in: query)
        else { return nil }
        let reader = Range(match.range(at: 1), in: query).map { String(query[$0]) }
        let path = String(query[pathRange])
        guard reader != nil || path.contains(".") || path.contains("/") else { return nil }
        return (path, reader)
    }

    /// How a file is read here, for a query that read `path` as DuckDB does (with `reader`).
    static func fileAnswer(path: String, reader: String? = nil) -> String {
        "DuckDB's \(reader.map { "\($0)('\(path)')" } ?? "FROM '\(path)'") reads the file; here import(\(luaQuote(path))) reads "
            + "a CSV or JSON file into an entity, which SQL then reads by its name"
    }

    /// DuckDB's FROM-first query of a file (`FROM 'taxis.csv';`, a whole query there; Lua
    /// reads it as a call of `FROM`): the answer saying how a file is read here; nil for
    /// any other line.
    static func fileFirst(_ line: String) -> String? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard text.prefix(4).uppercased() == "FROM", let file = fileTable(text),
            text.dropFirst(4).first.map({ $0 == " " || $0 == "\t" }) == true
        else { return nil }
        return fileAnswer(path: file.path, reader: file.reader)
    }

    /// The answer to `query`, which failed with `message` on the file it names as a table
    /// (the message names the file or its reader: a table of that name still runs); nil
    /// for any other failure.
    static func fileAnswer(_ query: String, failure message: String) -> String? {
        guard let file = fileTable(query), message.contains(file.path) || file.reader.map(message.contains) == true else { return nil }
        return fileAnswer(path: file.path, reader: file.reader)
    }
}
