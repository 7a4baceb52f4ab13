import QuarryModel

/// Relationships between objects: reading and changing them with their inverses kept in
/// step, and the delete rules.
extension ObjectContext {
    /// The current description of an object's entity (it may have gained inverses since
    /// the object was loaded).
    package func currentEntity(of object: ManagedObject) -> EntityDescription {
        managedObjectModel.entitiesByName[object.entity.name] ?? object.entity
    }

    /// The relationship `name` of the object's entity, or nil when `name` is not one.
    public func entitiesRelationship(_ name: String, of object: ManagedObject) -> RelationshipDescription? {
        currentEntity(of: object).relationship(named: name)
    }

    public func currentEntityDescription(of object: ManagedObject) -> EntityDescription { currentEntity(of: object) }

    /// The relationship's own name for `name`, which may be one it also answers to (see
    /// `relationshipAliases`): pending links are kept under the own name only.
    private func relationshipName(_ name: String, of object: ManagedObject) -> String {
        currentEntity(of: object).relationship(named: name)?.name ?? name
    }

    /// Only a sub-entity's objects may be linked through the relationships it declares.
    func refuseSubentityKey(_ name: String, of object: ManagedObject) throws {
        let entity = currentEntity(of: object)
        if entity.subentityKeys.contains(name) { throw entity.unknownKey(name) }
    }

    public func relationship(_ name: String, of object: ManagedObject) throws -> (RelationshipDescription, RelationshipStorage) {
        let entity = currentEntity(of: object)
        guard let relationship = entity.relationship(named: name) else { throw entity.unknownKey(name) }
        guard let storage = storage(of: relationship, in: entity.name) else {
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(name)' leads to \(relationship.destination), which is not defined yet")
        }
        return (relationship, storage)
    }

    private func checkTarget(_ target: ManagedObject, for relationship: RelationshipDescription, of object: ManagedObject) throws {
        // A relationship to a parent holds its sub-entities' objects too.
        guard isKind(target.entity.name, of: relationship.destination) else {
            throw StoreError.typeMismatch(
                entity: object.entity.name, key: relationship.name,
                expected: "\(relationship.destination) object", given: "\(target.entity.name) object")
        }
        guard target.context === self, !target.isDeleted else { throw StoreError.objectDeleted(objectID: target.objectID) }
    }

    // MARK: To-one

    /// The object a to-one relationship points to, pending change included.
    public func relatedObject(_ name: String, of object: ManagedObject) throws -> ManagedObject? {
        let name = relationshipName(name, of: object)
        let (relationship, _) = try self.relationship(name, of: object)
        guard !relationship.isToMany else { throw StoreError.invalidSchema(entity: object.entity.name, reason: "'\(name)' is to-many") }
        return try toOneTarget(name, of: object, destination: relationship.destination)
    }

    /// The object a to-one relationship pointed to at the last save, deleted since or not:
    /// the row its stored key names.
    func committedTarget(_ relationship: RelationshipDescription, of object: ManagedObject) -> ManagedObject? {
        (try? toOneTarget(relationship.name, of: object, destination: relationship.destination, committed: true)) ?? nil
    }

    /// The object a to-one relationship pointed to when `object`'s committed values were
    /// `values` (an outside change replaced them since): what its observers hear it was.
    public func toOneTarget(_ name: String, of object: ManagedObject, committedValues values: [String: Value]) -> ManagedObject? {
        guard let relationship = currentEntity(of: object).relationship(named: name), !relationship.isToMany else { return nil }
        return (try? toOneTarget(name, of: object, destination: relationship.destination, committed: true) { values[$0] }) ?? nil
    }

    /// The target as it is now, or with `committed` as it was at the last save (a target
    /// deleted since included); `stored` reads a committed value (the object's own unless given).
    private func toOneTarget(
        _ name: String, of object: ManagedObject, destination: String, committed: Bool = false,
        stored committedValue: ((String) -> Value?)? = nil
    ) throws -> ManagedObject? {
        let committedValue = committedValue ?? { object.committedValue($0) }
        if committed, object.isInserted { return nil }
        if !committed, let pending = object.pendingToOne[name] { return pending.flatMap { $0.isDeleted ? nil : $0 } }
        let relationship = currentEntity(of: object).relationship(named: name)
        if let key = relationship?.compositeKey {
            // Kept in several columns: their values, unsaved ones included, name the target.
            let values = key.columns.map { (committed ? nil : object.pending[$0]) ?? committedValue($0) ?? .null }
            let target = try compositeTarget(values, try entity(named: destination), key.targetKeys)
            return target?.isDeleted == true && !committed ? nil : target
        }
        // A link kept in an attribute column reads that column's unsaved value, if any.
        let stored = (committed ? nil : relationship?.column.flatMap { object.pending[$0] }) ?? committedValue(name)
        let target: ManagedObject?
        if let targetKey = relationship?.targetKey {
            // Matched by value (relate, or a foreign key to a non-key column).
            guard let value = stored, !value.isNull else { return nil }
            let destinationEntity = try entity(named: destination)
            target =
                try valueMatchedTarget(name, value: value, of: object, destinationEntity, targetKey)
                ?? (committed ? nil : unsavedValueMatchedTarget(name, value: value, of: object, destinationEntity, targetKey))
        } else {
            // Matched as SQLite's join matches a link column of text to a rowid (`'900'`).
            guard let key = stored.flatMap(ColumnAffinity.rowNumber) else { return nil }
            target = try toOneTarget(name, key: key, of: object, destination)
        }
        return target?.isDeleted == true && !committed ? nil : target
    }

    /// The relationships of `object` changed since the last save, with their members then
    /// and now (`o:changes()` lists them with the attributes). A to-many relationship
    /// counts as changed when its members differ, or for an ordered one their order.
    public func relationshipChanges(of object: ManagedObject) throws -> [RelationshipChange] {
        let entity = currentEntity(of: object)
        var changes: [RelationshipChange] = []
        for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where !entity.subentityKeys.contains(relationship.name) {
            let name = relationship.name
            let new = try relatedObjects(name, of: object)
            let old: [ManagedObject]
            if !relationship.isToMany {
                old = try toOneTarget(name, of: object, destination: relationship.destination, committed: true).map { [$0] } ?? []
            } else if object.isInserted {
                old = []
            } else {
                old = try committedMembers(name, of: object)
            }
            let same =
                keepsOrder(name, of: entity.name)
                ? old.elementsEqual(new, by: ===)
                : Set(old.map(ObjectIdentifier.init)) == Set(new.map(ObjectIdentifier.init))
            if !same { changes.append(RelationshipChange(key: name, isToMany: relationship.isToMany, old: old, new: new)) }
        }
        return changes
    }

    /// The members of a to-many relationship as saved: the stored rows, unsaved changes
    /// (to it, to its members' inverses, deletions) left out.
    private func committedMembers(_ name: String, of object: ManagedObject) throws -> [ManagedObject] {
        let (relationship, storage) = try self.relationship(name, of: object)
        let destination = try entity(named: relationship.destination)
        switch storage {
        case .inverseForeignKey(_, let column, let ownerKey, _):
            guard let ownerKey else {
                return try store.inStoredOrder(savedMembers(name, of: object, destination), name, of: object, session: session)
            }
            guard let value = object.committedValue(ownerKey), !value.isNull else { return [] }
            return try storedMembers(
                of: destination, where: [column], are: [value], matching: [ownerKey], of: currentEntity(of: object), ownRow: object.primaryKey)
        case .inverseCompositeKey(_, let columns, let ownerKeys, _):
            let values = ownerKeys.map { object.committedValue($0) ?? .null }
            guard !values.contains(where: \.isNull) else { return [] }
            return try storedMembers(
                of: destination, where: columns, are: values, matching: ownerKeys, of: currentEntity(of: object), ownRow: object.primaryKey)
        case .linkTable:
            return try store.inStoredOrder(Self.once(savedMembers(name, of: object, destination)), name, of: object, session: session)
        case .foreignKey, .compositeKey:
            return []
        }
    }

    /// `members` with each object once: a to-many is a set, though another program's join
    /// table may hold a link twice.
    static func once(_ members: [ManagedObject]) -> [ManagedObject] {
        var seen = Set<ObjectIdentifier>()
        return members.filter { seen.insert(ObjectIdentifier($0)).inserted }
    }

    /// The object's saved row, when its `keys` still hold what was saved (its members are
    /// then that row's); nil for a new object or changed keys, whose members are those
    /// naming the values it holds now.
    private func savedRow(of object: ManagedObject, keeping keys: [String]) -> Int64? {
        guard !object.isInserted, keys.allSatisfy({ object.committedValue($0) == object.currentValue($0) }) else { return nil }
        return object.primaryKey
    }

    /// The saved rows of `destination` whose `columns` name the owner's `ownerKeys` (a
    /// foreign key to columns other than the owner's key), by key. Read as the predicates'
    /// SQL reads them (`members`): the owner's own row joined to its members, the owner's
    /// columns on the left, so SQLite compares with their affinity and collation, as its
    /// foreign key does (a member's `'10'` names the owner whose INTEGER key is 10, and
    /// `'vx'` the one whose NOCASE code is `'VX'`). A value bound alone has neither: the
    /// members `@count` counted were not all listed. An owner known by its row's place
    /// (`values`: its saved key) is matched by its values, with the columns' collations.
    private func storedMembers(
        of destination: EntityDescription, where columns: [String], are values: [Value],
        matching ownerKeys: [String], of owner: EntityDescription, ownRow: Int64?
    ) throws -> [ManagedObject] {
        let storage = mapped(destination)
        let owners = mapped(owner)
        if let ownRow, !owners.keyIsPlace {
            let condition = RelationshipStorage.compositeCondition(parent: "\"o\"", targetKeys: ownerKeys, child: "\"d\"", columns: columns)
            let sql =
                "SELECT \(storage.selection(of: destination, qualifier: "d")) FROM \(storage.table) AS \"d\" JOIN \(owners.table) AS \"o\" "
                + "ON \(condition) WHERE \"o\".\(owners.key) = ? ORDER BY \"d\".\(storage.key)"
            return try Self.objectRows(connection.rows(sql, arguments: [.integer(ownRow)]), storage).map {
                try self.object(for: destination, values: $0)
            }
        }
        // The owner column's collation, as the join compares: a key other tables' foreign
        // keys name (`collations`) or a code `relate()` matches (`columnCollations`).
        let condition = zip(columns, ownerKeys).map { column, key in
            "\(quoteIdentifier(column)) = ?" + ((owners.collations[key] ?? owners.columnCollations[key]).map { " COLLATE " + $0 } ?? "")
        }
        .joined(separator: " AND ")
        let sql = "SELECT \(storage.selection(of: destination)) FROM \(storage.table) WHERE \(condition) ORDER BY \(storage.key)"
        return try Self.objectRows(connection.rows(sql, arguments: values), storage).map { try self.object(for: destination, values: $0) }
    }

    /// `rows` whose key makes an object: a WITHOUT ROWID table's INTEGER key may hold text,
    /// and such a row is no member (as the predicates' SQL counts members).
    private static func objectRows(_ rows: [[Value]], _ storage: EntityStorage) -> [[Value]] {
        guard storage.keyMayHoldOthers else { return rows }
        return rows.filter { if case .integer = $0.first { true } else { false } }
    }

    /// The saved row of `destination` whose `targetKeys` hold `values` (those of a foreign
    /// key of several columns, which the destination holds unique); nil when a value is
    /// NULL (MATCH SIMPLE) or no row has them.
    func compositeTarget(_ values: [Value], _ destination: EntityDescription, _ targetKeys: [String]) throws -> ManagedObject? {
        guard !values.contains(where: \.isNull) else { return nil }
        let storage = mapped(destination)
        let condition = targetKeys.map { "\(quoteIdentifier($0)) = ?" }.joined(separator: " AND ")
        let sql = "SELECT \(storage.selection(of: destination)) FROM \(storage.table) WHERE \(condition) ORDER BY \(storage.key) LIMIT 1"
        guard let row = try connection.row(sql, arguments: values) else { return nil }
        return try object(for: destination, values: row)
    }

    /// Points a to-one relationship at `target` (nil: none), and keeps a to-one inverse
    /// in step; a to-many inverse follows by itself, as it is read from this side.
    public func setRelatedObject(_ target: ManagedObject?, _ name: String, of object: ManagedObject) throws {
        let name = relationshipName(name, of: object)
        let (relationship, _) = try self.relationship(name, of: object)
        try refuseSubentityKey(name, of: object)
        if mapped(object.entity).isView { throw StoreError.viewIsReadOnly(entity: object.entity.name) }
        guard !relationship.isToMany else {
            throw StoreError.typeMismatch(
                entity: object.entity.name, key: name, expected: "a set of \(relationship.destination) objects", given: "one object")
        }
        if object.isDeleted || object.context == nil { throw StoreError.objectDeleted(objectID: object.objectID) }
        try object.checkStoreOpen()
        try target?.checkStoreOpen()
        if let target { try checkTarget(target, for: relationship, of: object) }
        // A link kept in the key column (a key that is also a foreign key) would move the
        // row: a saved object keeps its key (`ManagedObject.setValue` says why).
        if !object.isInserted, let column = relationship.column, column == mapped(object.entity).keyColumn {
            let given = target.map { t in relationship.targetKey.map { t.currentValue($0) } ?? t.primaryKey.map(Value.integer) ?? .null } ?? .null
            if linkValue(given, column, of: currentEntity(of: object)) != (object.committedValue(column) ?? .null) {
                throw ManagedObject.keyKept(object, column)
            }
        }
        try refuseKeyChange(through: relationship, to: target, of: object)
        let old = try toOneTarget(name, of: object, destination: relationship.destination)
        if old === target { return }
        assignToOne(target, name, of: object)
        if let inverseName = relationship.inverse,
            let inverse = managedObjectModel.entitiesByName[relationship.destination]?.relationship(named: inverseName), !inverse.isToMany
        {
            if let old { assignToOne(nil, inverseName, of: old) }
            if let target {
                if let previous = try toOneTarget(inverseName, of: target, destination: object.entity.name), previous !== object {
                    assignToOne(nil, name, of: previous)
                }
                assignToOne(object, inverseName, of: target)
            }
        }
    }

    /// Refuses a link whose columns are part of the key a saved row is known by (a WITHOUT
    /// ROWID table's key that is also a foreign key), as `ManagedObject.setValue` refuses
    /// setting that column: the object stays as it was.
    private func refuseKeyChange(through relationship: RelationshipDescription, to target: ManagedObject?, of object: ManagedObject) throws {
        guard !object.isInserted else { return }
        let entity = currentEntity(of: object)
        let storage = mapped(entity)
        let columns = relationship.linkColumns
        guard !storage.keyChanges(columns).isEmpty else { return }
        let targetKeys: [String?] = relationship.compositeKey.map { $0.targetKeys.map(Optional.some) } ?? [relationship.targetKey]
        for (column, targetKey) in zip(columns, targetKeys) where !storage.keyChanges([column]).isEmpty {
            let given = target.map { t in targetKey.map { t.currentValue($0) } ?? t.primaryKey.map(Value.integer) ?? .null } ?? .null
            if !Value.sameStored(linkValue(given, column, of: entity), object.committedValue(column) ?? .null) {
                throw EntityStorage.keyChangeRefusal(entity.name, column, atSave: false)
            }
        }
    }

    /// The value a link column of `entity` takes from its target's key: as SQLite stores it
    /// in that column (`ColumnAffinity.stored`), so the object reads before the save what it
    /// reads after (`taken INTEGER` given `Visited.id` '900' holds 900).
    func linkValue(_ value: Value, _ column: String, of entity: EntityDescription) -> Value {
        guard let attribute = entity.attribute(named: column), let affinity = ColumnAffinity(of: attribute, in: mapped(entity)) else { return value }
        return affinity.stored(value)
    }

    func assignToOne(_ target: ManagedObject?, _ name: String, of object: ManagedObject) {
        let entity = currentEntity(of: object)
        // A link kept in a column that is also an attribute (a foreign key of a file Quarry
        // did not create, or relate) is written through that attribute.
        if let relationship = entity.relationship(named: name), let key = relationship.compositeKey {
            // A key of several columns: each takes its target's value (all NULL for none).
            for (column, targetKey) in zip(key.columns, key.targetKeys) where entity.attribute(named: column) != nil {
                let value = linkValue(target.map { $0.currentValue(targetKey) } ?? .null, column, of: entity)
                object.pending[column] = value == object.committedValue(column) && !object.isInserted ? nil : value
            }
        } else if let relationship = entity.relationship(named: name), let column = relationship.column,
            entity.attribute(named: column) != nil
        {
            let given = target.map { t in relationship.targetKey.map { t.currentValue($0) } ?? t.primaryKey.map(Value.integer) ?? .null } ?? .null
            let value = linkValue(given, column, of: entity)
            object.pending[column] = value == object.committedValue(column) && !object.isInserted ? nil : value
        }
        // Another to-one sharing a column with a key of several columns (TPC-H's
        // `lineitem.part` by l_partkey beside `lineitem.partsupp`) reads the column anew.
        if let relationship = entity.relationship(named: name) {
            let written = relationship.linkColumns
            for other in entity.toOneRelationships
            where other.name != name && (other.compositeKey != nil || relationship.compositeKey != nil)
                && written.contains(where: other.keepsLink(in:))
            {
                object.pendingToOne[other.name] = nil
            }
        }
        let committedKey: Int64? = { if case .integer(let k)? = object.committedValue(name) { return k } else { return nil } }()
        if !object.isInserted, target?.primaryKey == committedKey, target?.primaryKey != nil || (target == nil && committedKey == nil) {
            object.pendingToOne[name] = nil
        } else {
            object.pendingToOne[name] = .some(target)
        }
        if target != nil { store.noteAddition(object) }
        if !unsaved.orders.isEmpty, let relationship = entity.relationship(named: name), let inverse = relationship.inverse {
            forgetPlace(of: object, in: inverse, of: relationship.destination, exceptUnder: target)
        }
        noteChanged(object)
    }

    // MARK: To-many

    /// The objects of a to-many relationship, saved links and pending changes together:
    /// saved ones by key, then unsaved ones in the order they were added.
    public func relatedObjects(_ name: String, of object: ManagedObject) throws -> [ManagedObject] {
        let name = relationshipName(name, of: object)
        let (relationship, storage) = try self.relationship(name, of: object)
        guard relationship.isToMany else {
            return try relatedObject(name, of: object).map { [$0] } ?? []
        }
        let destination = try entity(named: relationship.destination)
        var result: [ManagedObject] = []
        switch storage {
        case .inverseForeignKey(_, let column, let ownerKey, let inverse):
            let ownValue: Value? = ownerKey.map { object.currentValue($0) } ?? object.primaryKey.map(Value.integer)
            if ownerKey == nil {
                result = try store.inStoredOrder(savedMembers(name, of: object, destination), name, of: object, session: session).filter { target in
                    if let pending = pendingInverse(inverse, of: target) { return pending === object }
                    return true
                }
            } else if let ownerKey, let ownValue, !ownValue.isNull {
                result = try storedMembers(
                    of: destination, where: [column], are: [ownValue], matching: [ownerKey], of: currentEntity(of: object),
                    ownRow: savedRow(of: object, keeping: [ownerKey])
                ).filter { target in
                    if let pending = pendingInverse(inverse, of: target) { return pending === object }
                    return true
                }
            }
            result += pendingMembers(of: object, name, destination, inverse: inverse, besides: result)
        case .inverseCompositeKey(_, let columns, let ownerKeys, let inverse):
            let values = ownerKeys.map { object.currentValue($0) }
            let stored =
                values.contains(where: \.isNull)
                ? []
                : try storedMembers(
                    of: destination, where: columns, are: values, matching: ownerKeys, of: currentEntity(of: object),
                    ownRow: savedRow(of: object, keeping: ownerKeys))
            result = stored.filter { target in
                if let pending = pendingInverse(inverse, of: target) { return pending === object }
                return true
            }
            result += pendingMembers(of: object, name, destination, inverse: inverse, besides: result)
        case .linkTable(let table, let sourceColumn, _):
            let saved = try savedMembers(name, of: object, destination)
            result = try store.inStoredOrder(Self.once(saved), name, of: object, session: session)
            let mineIsSource = sourceColumn == "source"
            applyPendingJoinRows(to: &result, saved: saved, link: table, mineIsSource: mineIsSource, of: object)
            for link in unsaved.links where link.table == table {
                let (me, other) = mineIsSource ? (link.source, link.target) : (link.target, link.source)
                guard me === object else { continue }
                if link.isAdd { if !result.contains(where: { $0 === other }) { result.append(other) } } else { result.removeAll { $0 === other } }
            }
        case .foreignKey, .compositeKey:
            break
        }
        // Members placed by position (`insert`, `move`) keep their places until the save.
        if let order = pendingOrder(name, of: object) { result = order.arranged(result) }
        return result.filter { !$0.isDeleted }
    }

    /// The unsaved members of a to-many whose inverse is kept in the members' rows: those
    /// whose link back (`inverse`) was set to `object` since the save, not among `saved`;
    /// an ordered relationship (Core Data's) in the order members were added.
    private func pendingMembers(
        of object: ManagedObject, _ name: String, _ destination: EntityDescription, inverse: String,
        besides saved: [ManagedObject]
    ) -> [ManagedObject] {
        let pendingMembers = (unsaved.inserted + Array(unsaved.updated.values)).filter { candidate in
            isKind(candidate.entity.name, of: destination.name) && pendingInverse(inverse, of: candidate).map { $0 === object } == true
        }
        let added =
            store.isOrdered(name, of: object.entity.name) ? store.inAdditionOrder(pendingMembers.sorted(by: order)) : pendingMembers.sorted(by: order)
        return added.filter { member in !saved.contains { $0 === member } }
    }

    /// A member's unsaved link back to its owner (`inverse`), nil when unchanged: set
    /// through the relationship, or through the attribute column that keeps it (author_id).
    private func pendingInverse(_ inverse: String, of member: ManagedObject) -> ManagedObject?? {
        if let pending = member.pendingToOne[inverse] { return pending }
        guard let relationship = currentEntity(of: member).relationship(named: inverse),
            relationship.linkColumns.contains(where: { member.pending[$0] != nil })
        else { return nil }
        return .some(try? toOneTarget(inverse, of: member, destination: relationship.destination))
    }

    private func order(_ a: ManagedObject, _ b: ManagedObject) -> Bool {
        switch (a.primaryKey, b.primaryKey) {
        case (let x?, let y?): return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default: return a.temporaryNumber < b.temporaryNumber
        }
    }

    /// Adds `target` to a to-many relationship (and so `object` to its inverse).
    public func addRelated(_ target: ManagedObject, to name: String, of object: ManagedObject) throws {
        try changeLink(target, name, object, add: true)
    }

    public func removeRelated(_ target: ManagedObject, from name: String, of object: ManagedObject) throws {
        try changeLink(target, name, object, add: false)
    }

    private func changeLink(_ target: ManagedObject, _ name: String, _ object: ManagedObject, add: Bool) throws {
        let name = relationshipName(name, of: object)
        if mapped(object.entity).isView { throw StoreError.viewIsReadOnly(entity: object.entity.name) }
        let (relationship, storage) = try self.relationship(name, of: object)
        try refuseSubentityKey(name, of: object)
        if object.isDeleted || object.context == nil { throw StoreError.objectDeleted(objectID: object.objectID) }
        try object.checkStoreOpen()
        try target.checkStoreOpen()
        try checkTarget(target, for: relationship, of: object)
        switch storage {
        case .foreignKey, .compositeKey:
            try setRelatedObject(add ? target : nil, name, of: object)
        case .inverseForeignKey(_, _, _, let inverse), .inverseCompositeKey(_, _, _, let inverse):
            if add {
                try setRelatedObject(object, inverse, of: target)
            } else if try toOneTarget(inverse, of: target, destination: object.entity.name) === object {
                try setRelatedObject(nil, inverse, of: target)
            }
        case .linkTable(let table, let sourceColumn, _):
            try refuseReadOnlyPair(table, add: add, name, of: object)
            let isMember = try relatedObjects(name, of: object).contains { $0 === target }
            if isMember == add { return }
            let (source, other) = sourceColumn == "source" ? (object, target) : (target, object)
            if !add {
                forgetPlace(of: target, in: name, of: object)
                if let inverse = relationship.inverse { forgetPlace(of: object, in: inverse, of: target) }
            }
            // Undoing a pending change cancels it rather than recording its opposite.
            if let index = unsaved.links.lastIndex(where: { $0.table == table && $0.source === source && $0.target === other && $0.isAdd != add }) {
                unsaved.links.remove(at: index)
            } else {
                unsaved.links.append(PendingLink(table: table, source: source, target: other, isAdd: add))
            }
            // Results that read the relationship answer again.
            bumpPendingGeneration(touching: source, other)
        }
    }

    /// Refuses a link of a join table that needs a column nothing fills (`readOnlyLinks`).
    private func refuseReadOnlyPair(_ link: String, add: Bool, _ name: String, of object: ManagedObject) throws {
        guard let readOnly = mapped(object.entity).readOnlyLinks[link] else { return }
        let columns = readOnly.required.joined(separator: ", ")
        let table =
            managedObjectModel.entitiesByName[readOnly.join] != nil ? "make or delete \(readOnly.join) objects instead" : "write its rows in SQL"
        throw StoreError.during(
            operation: add ? "add" : "remove",
            .validation(
                message:
                    "\(object.entity.name).\(name) is read only: its join table \(readOnly.join) requires \(columns), which has no default; \(table)")
        )
    }

    /// Makes a to-many relationship hold exactly `targets`.
    public func setRelatedObjects(_ targets: [ManagedObject], _ name: String, of object: ManagedObject) throws {
        let current = try relatedObjects(name, of: object)
        for old in current where !targets.contains(where: { $0 === old }) { try removeRelated(old, from: name, of: object) }
        for new in targets where !current.contains(where: { $0 === new }) { try addRelated(new, to: name, of: object) }
    }
}
