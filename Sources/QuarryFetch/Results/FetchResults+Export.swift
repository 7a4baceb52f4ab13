import Foundation
import QuarryModel
import QuarryPredicates
import QuarryStore

extension FetchResults {
    /// Writes every object to `path` as CSV or, for a `.json` path, as an array of
    /// objects (see `TableWriter`); returns the count. Results that SQLite alone answers
    /// stream from one SELECT (no object is made); results holding unsaved changes are
    /// written object by object, as they are read. The section key and sort keys that are
    /// key paths (`artist.Name`) follow the attributes as columns named by the path: the
    /// order and grouping of the rows is theirs, so a file without them could not be
    /// read as the results were.
    @discardableResult
    public func export(to path: String) throws -> Int {
        let names = entity.attributeNames
        let extras = try exportedKeyPaths()
        var writer = try ExportWriter(path: path, columns: names + extras.map(\.key))
        if try servesRows() {
            let query = exportSQL(extras)
            // Column 0 is the key; the attributes follow in the entity's order, then the
            // key paths.
            _ = try context.connection.streamRows(
                query.sql, arguments: query.arguments, attributes: entity.attributes + extras.map(\.attribute),
                firstColumn: 1, writer: &writer.table, file: writer.file)
            return try writer.finish()
        }
        // A `char(n)` as the server's rows hold it, which the streamed rows write.
        let padded = names.map { compiled.storage.paddedLengths[$0] }
        while let object = try object(at: writer.count) {
            // A value that cannot be read stops the export (the file stays as it was).
            // A key path reads as the SQL's LEFT JOIN does: nil where a relationship is empty.
            let values = try zip(names, padded).map { name, length -> Value in
                let value = try object.value(forKey: name)
                guard let length, case .text(let text) = value, text.count < length else { return value }
                return .text(text + String(repeating: " ", count: length - text.count))
            }
            try writer.write(values + extras.map { value(atPath: $0.key, of: object) })
        }
        return try writer.finish()
    }

    /// The section key, then the sort keys, that are not the entity's attributes (key
    /// paths through to-one relationships), each once, with the attribute each reaches.
    func exportedKeyPaths() throws -> [(key: String, attribute: AttributeDescription)] {
        var keys: [String] = []
        for key in [request.sectionKey].compactMap({ $0 }) + request.sortDescriptors.map(\.key)
        where entity.attribute(named: key) == nil && !keys.contains(key) {
            keys.append(key)
        }
        return try keys.map { key in
            let reached = try BoundPredicate.keyPathValue(key, in: entity, context: context)
            // A date's part (`time_hour.month`) is a column of its own type.
            return (key, reached.part.map { AttributeDescription(name: key, type: $0.type, isOptional: true) } ?? reached.attribute)
        }
    }

    /// The export's SELECT: the key, the attributes, then each key path's value, read
    /// through the request's own joins (every key path here is a sort key, so joined
    /// already), or by a subquery when a path could not be joined.
    private func exportSQL(_ extras: [(key: String, attribute: AttributeDescription)]) -> SQLFragment {
        // The key and the attributes only: `selection` adds to-one key columns after them.
        let storage = compiled.storage
        let relation = quoteIdentifier(storage.relation)
        let prefix = relation + "."
        // A server's money and interval as their attributes read them (a numeric, seconds),
        // as an object's value is exported: not the server's text.
        var columns =
            ([prefix + quoteIdentifier(storage.keyColumn)]
            + compiled.entity.attributes.map { a in
                storage.isReadThroughCast(a.name) ? storage.readable(relation, a) : prefix + quoteIdentifier(a.name)
            }).joined(separator: ", ")
        for extra in extras {
            let descriptor = SortDescriptor(key: extra.key)
            var joins: ToOneJoins? = compiled.joins
            var term = try? descriptor.column(for: entity, qualifier: compiled.storage.relation, context: context, joins: &joins).sql
            // A join the request does not have would name a table its FROM lacks.
            if joins?.count != compiled.joins.count {
                var none: ToOneJoins? = nil
                term = try? descriptor.column(for: entity, qualifier: compiled.storage.relation, context: context, joins: &none).sql
            }
            // The request compiled with these keys, so each has a term.
            columns += ", " + (term ?? "NULL")
        }
        // No window, no LIMIT ? OFFSET ?: a query without arguments can go through
        // PostgreSQL's COPY, which takes none (`PostgresCopyExport`).
        if compiled.limit == nil, compiled.offset == 0 { return compiled.selectAll(columns) }
        return compiled.select(columns, start: 0, count: nil)
    }
}
