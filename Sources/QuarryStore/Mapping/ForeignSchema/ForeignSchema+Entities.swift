import Foundation
import QuarryModel

/// Another program's table or view as an entity and its storage, made once for every
/// engine from the schema's description: each column an attribute (`ForeignSchema+Attributes`)
/// typed by the engine, a default the object can know given to it, the key columns
/// nothing fills to be given by a new row, computed columns never written; a view read
/// through its temporary view (`ForeignSchema+Views`). The engine answers only what
/// differs (`ForeignSchemaEngine`), and what a table's rows are known by (`RowIdentity`).
extension ForeignSchema {
    /// What a table's rows are known by, as its engine decides: the storage reading them
    /// (its key column: a rowid or its alias, an integer key, or a number made from the
    /// key), the columns that are (part of) that identity, given by the engine or the
    /// store rather than by the object, and the columns a new row must be given when
    /// nothing fills them.
    package struct RowIdentity {
        var storage: EntityStorage
        var keys: [String]
        var toGive: [String]

        package init(storage: EntityStorage, keys: [String], toGive: [String]) {
            self.storage = storage
            self.keys = keys
            self.toGive = toGive
        }
    }

    /// The entity of the table `relation`, of its `columns` (all unless the engine keeps
    /// fewer), its rows known by `identity`.
    package static func tableEntity(
        _ relation: Relation, columns: [Column]? = nil, knownBy identity: RowIdentity,
        engine: some ForeignSchemaEngine
    ) -> (entity: EntityDescription, storage: EntityStorage) {
        let columns = columns ?? relation.columns
        var storage = identity.storage
        let attributes = columns.map { column -> AttributeDescription in
            let type = engine.attributeType(column)
            let isKey = identity.keys.contains(column.name)
            // The key's default is the row's own (a rowid alias takes the next one).
            var defaultValue: Value?
            if column.hasDefault, !isKey {
                switch engine.columnDefault(of: column, as: type) {
                case .constant(let value)?: defaultValue = value
                case .atInsert(let clock)?: storage.clockDefaults[column.name] = clock
                case nil: storage.engineDefaults.insert(column.name)
                }
            }
            engine.noteType(of: column, in: &storage)
            return column.attribute(type, isKey: isKey, defaultValue: defaultValue)
        }
        // What a SET DEFAULT key's columns take when their parent goes: as declared.
        let setDefault = Set(relation.foreignKeys.filter { $0.onDelete == "SET DEFAULT" }.flatMap(\.columns))
        for column in columns where setDefault.contains(column.name) {
            guard let declared = column.defaultText else { continue }
            if let evaluated = engine.setDefault(declared, of: column) {
                storage.setDefaults[column.name] = evaluated
            } else {
                storage.unevaluatedDefaults[column.name] = declared
            }
        }
        storage.keysToGive.append(contentsOf: keysToGive(columns, among: identity.toGive))
        storage.primaryKey = relation.primaryKey
        storage.generated.formUnion(relation.generatedColumns.intersection(columns.map(\.name)))
        storage.numericDates.merge(engine.numericDates(of: storage, among: attributes)) { _, found in found }
        return (EntityDescription(name: relation.name, attributes: attributes), storage)
    }

    /// The read-only entity of the view `relation`, of its `columns` (all unless the
    /// engine keeps fewer), read through a temporary view made when SQL first reads it
    /// (deferred on `context`'s connection); nil when the view cannot be one.
    package static func viewEntity(
        _ relation: Relation, columns: [Column]? = nil, taken: Set<String>, engine: some ForeignSchemaEngine,
        in session: StoreSession
    ) -> (entity: EntityDescription, storage: EntityStorage)? {
        let columns = columns ?? relation.columns
        let names = columns.map(\.name)
        var types = columns.map(engine.attributeType)
        // A computed column declares no type: it has the type of what it holds.
        let untyped = names.indices.filter { columns[$0].declaredType.trimmingSpaces.isEmpty }
        if !untyped.isEmpty {
            for (index, type) in zip(untyped, engine.computedColumnTypes(relation.name, untyped.map { names[$0] })) { types[index] = type }
        }
        guard let rows = engine.viewRows(relation.name, names: names, types: types, taken: taken) else { return nil }
        session.connection.deferView(rows.relation, rows.making)
        var storage = EntityStorage(layout: .foreignView, relation: rows.relation, keyColumn: rows.key, dialect: session.sqlDialect)
        storage.keyIsPlace = rows.byPlace
        for column in columns { engine.noteType(of: column, in: &storage) }
        let attributes = columns.indices.map { columns[$0].viewAttribute(types[$0]) }
        return (EntityDescription(name: relation.name, attributes: attributes), storage)
    }
}
