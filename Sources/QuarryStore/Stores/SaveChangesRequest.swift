import GRDB

/// What one `save()` asks of the store (Core Data's `NSSaveChangesRequest`): the objects
/// to insert, update and delete, the links to add and remove, and how to settle a
/// conflict with another connection's change.
struct SaveChangesRequest {
    let inserts: [ManagedObject]
    /// Updated and deleted objects by key; a conflict settled by the policy may take an
    /// object out (a row the other side deleted).
    var updates: [ManagedObject]
    var deletes: [ManagedObject]
    /// Link changes; a settled conflict takes out those of an object whose row is gone.
    var links: [PendingLink]
    /// Ordered relationships whose members were placed by position.
    let orders: [PendingOrder]
    let policy: MergePolicy

    /// The keys the inserted rows were given, as the transaction goes on.
    struct Keys {
        var byObject: [ObjectIdentifier: Int64] = [:]

        /// The key an object's row has or was just given; NULL for none.
        func of(_ object: ManagedObject?) -> DatabaseValue {
            guard let object else { return .null }
            return (object.primaryKey ?? byObject[ObjectIdentifier(object)])?.databaseValue ?? .null
        }

        /// The object IDs of the inserted objects that have a row now.
        func insertedIDs(_ request: SaveChangesRequest) -> [String] {
            request.inserts.compactMap { object in byObject[ObjectIdentifier(object)].map { "\(object.entity.name)/\($0)" } }
        }

        /// The inserted objects with their new keys.
        func inserted(_ request: SaveChangesRequest) -> [(ManagedObject, Int64)] {
            request.inserts.compactMap { object in byObject[ObjectIdentifier(object)].map { (object, $0) } }
        }
    }
}

/// What the store wrote, for the context to apply to its objects once the save committed.
struct SaveChangesResult {
    /// The request as written (conflicts settled).
    var request: SaveChangesRequest
    /// The new keys of the inserted objects, in order.
    var newKeys: [Int64] = []
    /// Stored rows the objects take as their new snapshot (a conflict settled).
    var adopted: [(ManagedObject, [String: Value])] = []
    /// Objects whose rows another connection deleted (a conflict settled): deleted here
    /// too once the save commits, whatever the policy, as `refresh` finds them.
    var gone: [ManagedObject] = []
    /// Values a file Quarry did not create keeps in another form, as they read back.
    var readBacks: [(ManagedObject, String, Value)] = []
}

extension ObjectContext {
    /// The unsaved target of the to-one relationship that keeps its key in `object`'s
    /// attribute `column` (a foreign file's `parent_id`): the key it gets in this save is
    /// the column's value, so a required column is not nil for want of it.
    func unsavedTarget(of object: ManagedObject, keptIn column: String) -> ManagedObject? {
        for relationship in currentEntity(of: object).toOneRelationships where relationship.column == column && relationship.targetKey == nil {
            if let target = object.pendingToOne[relationship.name] ?? nil, target.primaryKey == nil, !target.isDeleted { return target }
        }
        return nil
    }

    /// The value an inserted row's attribute is written with: its own, or for a column
    /// that keeps a link, the key its target was given earlier in this save.
    func insertedValue(_ object: ManagedObject, _ name: String, keys: SaveChangesRequest.Keys) -> Value {
        let value = object.currentValue(name)
        guard value.isNull, let target = unsavedTarget(of: object, keptIn: name), let key = keys.byObject[ObjectIdentifier(target)] else { return value }
        return .integer(key)
    }
}

extension SaveChangesRequest {
    /// The links a file Quarry did not create keeps in an attribute column (author_id)
    /// whose target was inserted in this save, so held no key when the row was written:
    /// each object, its column and the key the target was given.
    func attributeLinks(_ keys: Keys, context: ObjectContext) -> [(object: ManagedObject, column: String, key: Int64)] {
        var links: [(object: ManagedObject, column: String, key: Int64)] = []
        for object in inserts + updates {
            let entity = context.currentEntity(of: object)
            for (name, target) in object.pendingToOne {
                guard let target, target.primaryKey == nil, let newKey = keys.byObject[ObjectIdentifier(target)],
                      let relationship = entity.relationship(named: name), relationship.targetKey == nil,
                      let column = relationship.column, entity.attribute(named: column) != nil else { continue }
                links.append((object, column, newKey))
            }
        }
        return links
    }
}
