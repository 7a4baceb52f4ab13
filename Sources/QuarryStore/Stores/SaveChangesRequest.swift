import QuarryModel

/// What one `save()` asks of the store (Core Data's `NSSaveChangesRequest`): the objects
/// to insert, update and delete, the links to add and remove, and how to settle a
/// conflict with another connection's change.
package struct SaveChangesRequest {
    package let inserts: [ManagedObject]
    /// Updated and deleted objects by key; a conflict settled by the policy may take an
    /// object out (a row the other side deleted).
    package var updates: [ManagedObject]
    package var deletes: [ManagedObject]
    /// Link changes; a settled conflict takes out those of an object whose row is gone.
    package var links: [PendingLink]
    /// Ordered relationships whose members were placed by position.
    package let orders: [PendingOrder]
    /// Those of them a join table's position keeps, with their members as saved.
    var positioned: [PositionedOrder] = []
    let policy: MergePolicy
    /// Saved objects updated through others (a link's ends, a to-one's owners, an ordered
    /// relationship's owner), with the keys that change: updated, as Core Data has them.
    var touched: [(object: ManagedObject, keys: Set<String>)] = []

    /// The updated objects, those updated through others included, as a history records
    /// them (`entity/key`): by entity name and row number, never made as ID strings (a
    /// save of 20,000 changed objects made and then quoted 20,000 of them, 3% of it). An
    /// updated object has a row; one without a key would have none to name.
    package var updatedRows: [(entity: String, key: Int64)] {
        var rows: [(entity: String, key: Int64)] = updates.compactMap { object in object.primaryKey.map { (object.entity.name, $0) } }
        // The set of the written objects only when others were updated through them.
        guard !touched.isEmpty else { return rows }
        let written = Set(updates.map(ObjectIdentifier.init))
        for (object, _) in touched where !written.contains(ObjectIdentifier(object)) {
            if let key = object.primaryKey { rows.append((object.entity.name, key)) }
        }
        return rows
    }

    /// The keys the inserted rows were given, as the transaction goes on.
    package struct Keys {
        var byObject: [ObjectIdentifier: Int64] = [:]

        /// The key an object's row has or was just given; nil for none.
        package func key(of object: ManagedObject?) -> Int64? {
            object.flatMap { $0.primaryKey ?? byObject[ObjectIdentifier($0)] }
        }

        /// The same as a value to write; null for none.
        func value(of object: ManagedObject?) -> Value { key(of: object).map(Value.integer) ?? .null }

        /// The object IDs of the inserted objects that have a row now.
        package func insertedIDs(_ request: SaveChangesRequest) -> [String] {
            // Not interpolated: that formatted each key through `description`, dynamically.
            request.inserts.compactMap { object in byObject[ObjectIdentifier(object)].map { object.entity.name + "/" + String($0) } }
        }

        /// The inserted objects with their new keys.
        package func inserted(_ request: SaveChangesRequest) -> [(ManagedObject, Int64)] {
            request.inserts.compactMap { object in byObject[ObjectIdentifier(object)].map { (object, $0) } }
        }
    }
}

/// What the store wrote, for the context to apply to its objects once the save committed.
package struct SaveChangesResult {
    /// The request as written (conflicts settled).
    package var request: SaveChangesRequest
    /// The new keys of the inserted objects, in order.
    var newKeys: [Int64] = []
    /// Stored rows the objects take as their new snapshot (a conflict settled).
    var adopted: [(ManagedObject, [String: Value])] = []
    /// Objects whose rows another connection deleted (a conflict settled): deleted here
    /// too once the save commits, whatever the policy, as `refresh` finds them.
    var gone: [ManagedObject] = []
    /// Deleted objects whose rows another connection changed, kept under `store`: their
    /// rows stay as the other side left them, and the objects live again with those
    /// values once the save commits.
    var kept: [ManagedObject] = []
    /// Values a file Quarry did not create keeps in another form, as they read back.
    package var readBacks: [(ManagedObject, String, Value)] = []

    package init(
        request: SaveChangesRequest, newKeys: [Int64] = [], adopted: [(ManagedObject, [String: Value])] = [], gone: [ManagedObject] = [],
        readBacks: [(ManagedObject, String, Value)] = []
    ) {
        self.request = request
        self.newKeys = newKeys
        self.adopted = adopted
        self.gone = gone
        self.readBacks = readBacks
    }
}

extension SaveChangesRequest {
    /// The links a file Quarry did not create keeps in an attribute column (author_id)
    /// whose target was inserted in this save, so held no key when the row was written:
    /// each object, its column and the key the target was given.
    func attributeLinks(_ keys: Keys, context: ObjectContext) -> [(object: ManagedObject, column: String, key: Int64)] {
        var links: [(object: ManagedObject, column: String, key: Int64)] = []
        for object in inserts + updates where !object.pendingToOne.isEmpty {
            let entity = context.currentEntity(of: object)
            for (name, target) in object.pendingToOne {
                guard let target, target.primaryKey == nil, let newKey = keys.byObject[ObjectIdentifier(target)],
                    let relationship = entity.relationship(named: name)
                else { continue }
                for column in context.targetKeyColumns(of: relationship) where entity.attribute(named: column) != nil {
                    links.append((object, column, newKey))
                }
            }
        }
        return links
    }
}

extension SaveChangesRequest {
    /// `objects` in an order a store that checks its foreign keys at each statement takes
    /// (PostgreSQL's, a file's RESTRICT): an object before the objects whose rows it names
    /// (a child deleted before its parent) or, with `parentsFirst`, after them (a parent
    /// inserted before its child). `parents` gives the objects among them that an object's
    /// row names through its to-one keys. Otherwise the order is kept; objects in a cycle
    /// of keys keep theirs too (a store that checks keys at commit takes them in any).
    /// Linear in the objects and their keys: each object is placed once its predecessors
    /// are, walked with a stack of its own (a chain of keys may be long).
    static func foreignKeyOrder(_ objects: [ManagedObject], parentsFirst: Bool, parents: (ManagedObject) -> [ManagedObject]) -> [ManagedObject] {
        guard objects.count > 1 else { return objects }
        let index = Dictionary(objects.enumerated().map { (ObjectIdentifier($0.element), $0.offset) }, uniquingKeysWith: { first, _ in first })
        // What must come before each object.
        var before = Array(repeating: [Int](), count: objects.count)
        var edges = false
        for (i, object) in objects.enumerated() {
            for parent in parents(object) {
                guard let p = index[ObjectIdentifier(parent)], p != i else { continue }
                if parentsFirst { before[i].append(p) } else { before[p].append(i) }
                edges = true
            }
        }
        guard edges else { return objects }
        enum Mark { case unplaced, visiting, placed }
        var mark = Array(repeating: Mark.unplaced, count: objects.count)
        var ordered: [ManagedObject] = []
        ordered.reserveCapacity(objects.count)
        for start in objects.indices where mark[start] == .unplaced {
            // (object, how many of its predecessors were looked at)
            var stack = [(start, 0)]
            mark[start] = .visiting
            while let (current, next) = stack.last {
                if next < before[current].count {
                    stack[stack.count - 1].1 += 1
                    let predecessor = before[current][next]
                    // One being visited is a cycle: its order is kept.
                    if mark[predecessor] == .unplaced {
                        mark[predecessor] = .visiting
                        stack.append((predecessor, 0))
                    }
                } else {
                    stack.removeLast()
                    mark[current] = .placed
                    ordered.append(objects[current])
                }
            }
        }
        return ordered
    }
}
