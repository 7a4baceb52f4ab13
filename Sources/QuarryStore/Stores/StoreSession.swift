import QuarryEngine
import QuarryModel

/// What a store is given of the session it serves, in place of the context (as Fluent's
/// drivers get a `Database`, never the ORM's session): the connection, the model as the
/// store mapped it, the session's settings (read-only, author), and the few things a
/// store tells the session back (opening and write notes, its own history tokens, an
/// entity it described anew). The context makes one for its store and hands it to every
/// call of the seam; the engines' targets never name the context.
///
/// What a save or a store's own bookkeeping still asks of the objects in use is listed
/// apart below (`Objects in use`), so the seam's width is what this type declares.
package final class StoreSession {
    /// Unowned: the context owns its session, and no store keeps one past a call.
    unowned let context: ObjectContext

    init(context: ObjectContext) { self.context = context }

    /// The store's connection, the one owner of its engine.
    package var connection: StoreConnection { context.connection }
    package var isReadOnly: Bool { context.isReadOnly }
    /// Where the store lives; nil for an in-memory store or a server's.
    package var path: String? { context.path }
    /// Who the recorded transactions name as their author.
    package var author: String? { context.author }
    /// The SQL the store speaks.
    package var sqlDialect: any SQLDialect { context.sqlDialect }

    /// The entities the store holds, as mapped.
    package var managedObjectModel: ManagedObjectModel { context.managedObjectModel }
    /// Where each entity's rows are.
    package var mapping: StoreMapping {
        get { context.mapping }
        _modify { yield &context.mapping }
    }
    /// Where `entity`'s rows are.
    package func mapped(_ entity: EntityDescription) -> EntityStorage { context.mapped(entity) }
    /// The objects inserted and not yet saved (a refused save names the one it was refused for).
    package var unsavedInserts: [ManagedObject] { context.pendingChanges.inserted }
    package func entity(named name: String) throws -> EntityDescription { try context.entity(named: name) }
    /// The root of `name`'s hierarchy (itself when it has no parent).
    package func rootName(of name: String) -> String { context.rootName(of: name) }
    package func storage(of relationship: RelationshipDescription, in entity: String) -> RelationshipStorage? {
        context.storage(of: relationship, in: entity)
    }
    /// An object's entity as the model describes it now (a redefinition may have changed it).
    package func currentEntity(of object: ManagedObject) -> EntityDescription { context.currentEntity(of: object) }
    /// The same, with where its rows are, looked up once an entity for a step of a save.
    package func savedEntities() -> SavedEntities { SavedEntities(context) }
    /// A row read by key (`StoreReading.rows`) as the values an object of `entity` holds.
    package func values(of entity: EntityDescription, row: [Value]) -> [String: Value] { context.values(of: entity, row: row) }
    /// An attribute's value in a row read by key.
    package static func value(of attribute: AttributeDescription, at index: Int, row: [Value]) -> Value {
        ObjectContext.value(of: attribute, at: index, row: row)
    }
    /// Whether `candidate` names no attribute, relationship or key column of `entity`.
    package func isFreeKey(_ candidate: String, in entity: EntityDescription) -> Bool { context.isFreeKey(candidate, in: entity) }
    /// The delete rules of `entity`'s relationships that the store has columns for.
    package func deleteRules(of entity: EntityDescription) -> [(RelationshipDescription, EntityStorage.ReferencingKey.Check)] {
        context.deleteRules(of: entity)
    }
    /// What a refused delete says of the foreign key behind `relationship`.
    package func foreignKeyNote(_ relationship: RelationshipDescription, of entity: String) -> String {
        context.foreignKeyNote(relationship, of: entity)
    }
    /// Keys found for entities of a hierarchy, by the entity each row is its own.
    package func keysByOwnEntity(_ found: [String: Set<Int64>], in statements: some WriteStatements) throws -> [String: [Int64]] {
        try context.keysByOwnEntity(found, in: statements)
    }

    /// What opening the store had to say (for stderr).
    package var openingNotes: [String] {
        get { context.openingNotes }
        _modify { yield &context.openingNotes }
    }
    /// Says that the store's relation `name` is no entity, and why (`note`, also said at
    /// open): `unknown entity` names it when the name is asked for.
    package func leaveOut(_ name: String, because note: String) { leaveOut([name], because: note) }
    /// The same for several relations one note names.
    package func leaveOut(_ names: [String], because note: String) {
        context.openingNotes.append(note)
        for name in names { context.leftOut[name] = note }
    }
    /// Notes (or, given nil, forgets) why `name` is no entity, for `unknown entity` to
    /// say, without a note of the open: a relation another program made since it.
    package func noteLeftOut(_ name: String, because why: String?) { context.leftOut[name] = why }
    /// The same for a view, which an open names among the views left out.
    package func leaveOutView(_ name: String, because note: String) {
        leaveOut([name], because: note)
        context.viewsLeftOut.append(name)
    }
    /// Notes of what writes kept other than given, said once each.
    package var writeNotes: WriteNotes {
        get { context.writeNotes }
        _modify { yield &context.writeNotes }
    }
    /// A history transaction the store wrote for this session, which outside changes skip.
    package func noteOwnHistory(_ token: Int64) { context.outsideChanges.ownHistoryTokens.insert(token) }
    /// Adds or replaces `entity`, its rows where `storage` says; objects in use take it.
    package func remember(_ entity: EntityDescription, storage: EntityStorage? = nil) { context.remember(entity, storage: storage) }
    /// The model changed outside a definition: results read again.
    package func bumpGeneration() { context.bumpGeneration() }
    /// Moves on every save and rollback.
    package var generation: Int { context.generation }
}

extension StoreSession {
    /// A to-one's key in a row read by key.
    package static func toOneValue(at i: Int, of entity: EntityDescription, row: [Value]) -> Value {
        ObjectContext.toOneValue(at: i, of: entity, row: row)
    }
}
