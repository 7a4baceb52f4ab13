import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarryStore

/// `accounts:get(1811)` on a table that declares no primary key (as pandas and many
/// course files write them) reads the row numbered 1811, its rowid, where the person
/// meant the row whose `id` column holds 1811: nil, or another row, without a word.
/// The number keeps its meaning (the object ID's, `accounts/82`); a note says which row
/// was read and the call that finds the one whose `id` is the number. The table's own
/// number may be named after it, as OpenFlights' `airports.airport_id` and Chinook's
/// `Track.TrackId` are: a column whose stem (`relationshipStem`) is the table's name, in
/// the singular or as it is, is read as its `id`.
extension SchemaBindings {
    static func noteRowNumberGet(_ runtime: QuarryRuntime, entity: String, number: Int64, found: ManagedObject?) throws {
        let description = try runtime.context.entity(named: entity)
        let storage = runtime.context.mapped(description)
        // Another program's table (not a Core Data store's, whose entities declare no key
        // of SQLite's), whose `id` holds numbers: a uuid or text id is no row number.
        guard storage.layout == .foreignTable, storage.primaryKey.isEmpty, storage.numberedRows == nil,
            let column = idColumn(of: description, besides: storage.keyColumn),
            let type = description.attribute(named: column)?.type, [.int16, .int32, .int64].contains(type)
        else { return }
        var held: Value = .null
        if let found {
            held = try found.value(forKey: column)
            if held == .integer(number) { return }
        }
        let predicate = try PredicateParser.parse("%K == %@", arguments: PredicateArguments([.text(column), .integer(number)]))
        let exists = try FetchRequest(entityName: entity, predicate: predicate, limit: 1).execute(in: runtime.context).count() > 0
        let which: String
        switch (found, held) {
        case (nil, _):
            guard exists else { return }
            which = "which is none"
        case (_, .integer(let n)): which = "whose \(column) is \(n)"
        case (_, .null): which = "whose \(column) is nil"
        default: which = "whose \(column) is another value"
        }
        let wanted =
            exists ? "the row whose \(column) is \(number) is \(entity):first(\"\(column) == \(number)\")" : "no row's \(column) is \(number)"
        runtime.writeNotice(
            "note: \(entity) declares no primary key, so get(\(number)) reads the row numbered \(number) (\(entity)/\(number)), \(which); \(wanted)")
    }

    /// `id`, else the column the table names after itself (`airport_id` of `airports`).
    private static func idColumn(of entity: EntityDescription, besides key: String) -> String? {
        let columns = entity.attributeNames.filter { $0 != key }
        if let id = columns.first(where: { $0.lowercased() == "id" }) { return id }
        let names = [entity.name.lowercased(), ForeignNaming.singular(entity.name).lowercased()]
        return columns.first { column in
            let stem = ForeignNaming.relationshipStem(column).lowercased()
            return stem != column.lowercased() && names.contains(stem)
        }
    }
}
