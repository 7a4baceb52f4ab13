import QuarryEngine
import QuarryModel

/// How another program's views are known, decided once for every engine: a view is a
/// read-only entity, its rows known by its column named `id`, `rowid` or `_pk` (else its
/// first column, when an integer) if its definition shows that column as a table's own
/// integer key, over some of that table's rows each once (`ViewDefinition`; the engine
/// says which columns are keys); otherwise by their place, in a column the engine's
/// temporary view adds (each engine's `ForeignSchemaEngine.viewRows`; the entity is made
/// in `ForeignSchema+Entities`). Nothing reads the view's rows to decide: a view over a
/// join of millions of rows, or one that never ends, gives its first rows at once.
extension ForeignSchema {
    /// The index of the column that may identify a view's rows, given the engine's types.
    package static func viewKeyCandidate(_ names: [String], _ types: [AttributeType]) -> Int? {
        let isInteger = { (type: AttributeType) in [.int16, .int32, .int64].contains(type) }
        return names.indices.first { ["id", "rowid", "_pk"].contains(names[$0].lowercased()) && isInteger(types[$0]) }
            ?? (types.first.map(isInteger) == true ? 0 : nil)
    }

    /// The name of the column numbering a view's rows by place: the first no column of
    /// the view has, in any case (nil: the view takes them all, and is left out).
    static func viewPlaceColumn(_ names: [String]) -> String? {
        let lowered = Set(names.map { $0.lowercased() })
        return ["_row", "_row_", "_view_row"].first { !lowered.contains($0) }
    }

    /// How a view's entity reads it, for every engine: through a temporary view,
    /// `quarry_rows <view>`, whose first column (`key`, named by `viewPlaceColumn`) is the
    /// row's key, so nothing is written and SQL a person writes reads the view as it is.
    /// The key is the candidate column (`viewKeyCandidate`) when `isTableKey` says the
    /// view's definition shows it as a table's key, else the row's place. The temporary
    /// view is made when SQL first reads it (`DeferredViews`): SQLite parses a view's SQL
    /// twice to make one. `source` is the view as the engine's SQL names it; `named` makes
    /// the temporary view's name one the engine keeps whole (PostgreSQL cuts a name at 63
    /// bytes, so two long views' would be one); `before`, statements before it is made
    /// (dropping one made before). Nil when the view takes every place column name.
    package static func viewRows(
        _ view: String, source: String, names: [String], types: [AttributeType], temporary: String = "TEMP VIEW",
        named: (String) -> String = { $0 }, before: (String) -> [String] = { _ in [] },
        isTableKey: (_ index: Int) -> Bool
    ) -> (relation: String, key: String, byPlace: Bool, making: [String])? {
        guard let key = viewPlaceColumn(names) else { return nil }
        let relation = named("quarry_rows " + view)
        let kept = names.map(quoteIdentifier).joined(separator: ", ")
        let keyed = viewKeyCandidate(names, types).flatMap { isTableKey($0) ? quoteIdentifier(names[$0]) : nil }
        let made =
            before(relation) + [
                "CREATE \(temporary) \(quoteIdentifier(relation)) AS SELECT \(keyed ?? "row_number() OVER ()") AS \(quoteIdentifier(key)), \(kept) FROM \(source)"
            ]
        return (relation, key, keyed == nil, made)
    }

    /// `name`, the temporary view of a view, unless the database has a relation of that
    /// name (`isTaken`): SQL would find the temporary view first and read it in the
    /// relation's place, so then a suffix of the name's hash keeps the two apart, and a
    /// count after it while the file has that name too (a file can name a table after
    /// the suffixed name, which hid that table from `sql()`; issue 81).
    package static func unshadowed(_ name: String, isTaken: (String) -> Bool) -> String {
        guard isTaken(name) else { return name }
        let suffixed = name + " " + String(nameHash(name), radix: 16)
        var candidate = suffixed
        var n = 1
        while isTaken(candidate) {
            n += 1
            candidate = suffixed + " \(n)"
        }
        return candidate
    }

    /// The views, in the order of their names.
    package var views: [Relation] { relations.values.filter(\.isView).sorted { $0.name < $1.name } }
}
