import QuarryModel

/// How a store's file holds its model: for each entity, where its rows are
/// (`EntityStorage`). One mapping is made per open store, by the layout the file has:
/// - Quarry's own files (`Mapping/QuarryFile`): a table per entity named after it, keyed
///   by `_pk`, a column per attribute and to-one relationship, a hierarchy in its root's
///   table told apart by `_entity`;
/// - foreign SQLite files (`Mapping/ForeignFile`): their tables and views as they are,
///   keyed by their integer primary key or rowid;
/// - Core Data stores (`Mapping/CoreData`): Z-tables shown under the model's names.
/// The context asks it for every table, key column and row selection it writes SQL for;
/// so do the predicate and fetch layers.
public struct StoreMapping: Sendable {
    private var storages: [String: EntityStorage] = [:]
    /// Formats the user declared for columns of a file Quarry did not create, by entity
    /// then column (see `ObjectContext+ColumnFormats`); for this session only.
    package var declaredFormats: [String: [String: ColumnFormat]] = [:]
    /// Number columns a time layout made date attributes, as the file's schema described
    /// them, by entity then column: what a later declaration fits and goes back to.
    package var numberColumnsAsDates: [String: [String: AttributeDescription]] = [:]

    public init() {}

    /// Where `entity`'s rows are. An entity the mapping has not placed (one being defined
    /// right now, or a dictionary request's stand-in) is laid out as Quarry's own.
    public func storage(of entity: EntityDescription) -> EntityStorage { storage(of: entity.name) }

    public func storage(of name: String) -> EntityStorage { storages[name] ?? .quarry(name) }

    /// Where `entity`'s rows are in `context`'s store; Quarry's own layout when there is
    /// no store (a predicate bound to an entity alone).
    public static func storage(of entity: EntityDescription, in context: ObjectContext?) -> EntityStorage {
        context?.mapped(entity) ?? .quarry(entity.name)
    }

    package mutating func place(_ name: String, _ storage: EntityStorage) { storages[name] = storage }
}
