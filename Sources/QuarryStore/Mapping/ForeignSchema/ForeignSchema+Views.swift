/// How another program's views are known, decided once for every engine: a view is a
/// read-only entity, its rows known by its column named `id`, `rowid` or `_pk` (else its
/// first column, when an integer) if that column holds a distinct integer in every row,
/// which the engine checks; otherwise by their place, in a column the engine's temporary
/// view adds (`ForeignSchemaReader`, `PostgresStore+Views`).
extension ForeignSchema {
    /// The index of the column that may identify a view's rows, given the engine's types.
    static func viewKeyCandidate(_ names: [String], _ types: [AttributeType]) -> Int? {
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

    /// The views, in the order of their names.
    var views: [Relation] { relations.values.filter(\.isView).sorted { $0.name < $1.name } }
}
