import QuarryModel
import QuarryPredicates
import QuarryStore

/// One section of sectioned results: the rows `start..<start+count` of the flat results,
/// all with the same value of the section key.
public struct SectionInfo: Equatable {
    public var id: Value
    public var start: Int
    public var count: Int

    /// The section key's value as text (`""` for nil, as Core Data names that section).
    public var name: String { id.isNull ? "" : id.displayString }
}

extension FetchResults {
    /// The sections, computed by SQLite in one grouped query over the request's window:
    /// each key's row count, in the order its first row appears under the sort.
    public func sections() throws -> [SectionInfo] {
        guard let attribute = compiledSectionAttribute else { return [] }
        if usesPendingChanges { return try pendingSections() }
        if let cached = cachedSections() { return cached }
        let sections = try readSections(compiled.sectionQuery(attribute), attribute)
        store(sections)
        return sections
    }
}

extension FetchResults {
    /// The sections a `sectionQuery` gives (`key, count` rows, in order), placed one after another.
    func readSections(_ query: SQLFragment, _ attribute: AttributeDescription) throws -> [SectionInfo] {
        var start = 0
        var sections: [SectionInfo] = []
        try context.connection.forEachRow(query.sql, arguments: query.arguments) { row in
            // A count(*), always an integer.
            let count = Int(row.int64(at: 1))
            sections.append(SectionInfo(id: attribute.type.decode(row.value(at: 0)), start: start, count: count))
            start += count
        }
        return sections
    }
}

extension CompiledRequest {
    /// `SELECT key, count(*)` per section, ordered by where each section starts.
    /// `whole`: over every matching row, whatever the window.
    func sectionQuery(_ attribute: AttributeDescription, whole: Bool = false) -> SQLFragment {
        let key = sectionSQL ?? "\(table).\(storage.column(attribute.name))"
        let (limit, offset): (Int?, Int) = whole ? (nil, 0) : (self.limit, self.offset)
        // Over the whole result, sorted by the raw key first, sections are a plain GROUP BY
        // in the key's order (NULL first when ascending, as ORDER BY puts it).
        if limit == nil, offset == 0, let first = sort.first, first.key == attribute.name, first.comparison == .binary {
            var sql = "SELECT \(key), count(*) FROM \(source)"
            var arguments: [Value] = []
            if let whereClause {
                sql += " WHERE " + whereClause.sql
                arguments += whereClause.arguments
            }
            let sorted = dialect.ordered(key, attribute)
            sql += " GROUP BY \(key) ORDER BY \(dialect.orderTerm(sorted, ascending: first.ascending))"
            return SQLFragment(sql, arguments)
        }
        var inner = "SELECT \(key) AS key, row_number() OVER (\(orderClause.dropFirst())) AS position FROM \(source)"
        var arguments: [Value] = []
        if let whereClause {
            inner += " WHERE " + whereClause.sql
            arguments += whereClause.arguments
        }
        var window = "position > ?"
        arguments.append(.integer(Int64(offset)))
        if let limit {
            window += " AND position <= ?"
            arguments.append(.integer(Int64(offset + limit)))
        }
        let sql = "SELECT key, count(*), min(position) AS first FROM (\(inner)) AS \"q\" WHERE \(window) GROUP BY key ORDER BY first"
        return SQLFragment(sql, arguments)
    }
}
