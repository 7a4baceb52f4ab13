import QuarryModel

/// Deleting with rules: Core Data's delete rules acted out on the objects in use.
extension ObjectContext {
    /// Deletes an object as Core Data does: `deny` refuses while related objects exist
    /// (naming them), `cascade` deletes them too, `nullify` clears their way back here,
    /// `noaction` leaves them as they are, `setdefault` (a foreign file's key) gives their
    /// column its declared default. Nothing changes when any rule refuses.
    public func delete(_ object: ManagedObject) throws {
        if mapped(object.entity).isView { throw StoreError.viewIsReadOnly(entity: object.entity.name) }
        try object.checkStoreOpen()
        guard object.context === self, !object.isDeleted else { return }
        var doomed: [ManagedObject] = []
        let links = try collect(object, into: &doomed)
        // Every change is worked out before any is made: a default that names no parent
        // left refuses the delete (setdefault), as SQLite's key check would.
        var clears: [(ManagedObject, String)] = []
        var defaults: [(ManagedObject, String, String, Value)] = []
        for victim in doomed {
            for relationship in currentEntity(of: victim).relationships where [.nullify, .setdefault].contains(relationship.deleteRule) {
                guard let inverseName = relationship.inverse, storage(of: relationship, in: victim.entity.name) != nil else { continue }
                // A join table's row is a link, which goes with the pair (its row deleted
                // before the victim's), not by its key's SET NULL or SET DEFAULT.
                if managedObjectModel.entitiesByName[relationship.destination].map({ mapped($0).pairLink != nil }) == true { continue }
                for related in try relatedObjects(relationship.name, of: victim) where !doomed.contains(where: { $0 === related }) {
                    let inverse = managedObjectModel.entitiesByName[relationship.destination]?.relationship(named: inverseName)
                    guard let inverse, !inverse.isToMany, try relatedObject(inverseName, of: related) === victim else { continue }
                    if relationship.deleteRule == .setdefault, let columns = inverse.compositeKey?.columns ?? inverse.column.map({ [$0] }) {
                        // Each of the key's columns takes its default; together they name a parent that stays.
                        let values = try columns.map { try ForeignKeyDefaults(session: session).columnDefault($0, of: currentEntity(of: related)) }
                        let going = Set(doomed.filter { $0.entity.name == victim.entity.name }.compactMap(\.primaryKey))
                        try ForeignKeyDefaults(session: session).checkDefaultParent(
                            values, parent: currentEntity(of: victim),
                            matchedBy: inverse.compositeKey?.targetKeys ?? [inverse.targetKey ?? mapped(currentEntity(of: victim)).keyColumn],
                            child: related.entity.name, columns: columns, doomed: going)
                        for (column, value) in zip(columns, values) { defaults.append((related, inverseName, column, value)) }
                    } else {
                        clears.append((related, inverseName))
                    }
                }
            }
        }
        for (related, name) in clears { assignToOne(nil, name, of: related) }
        for (related, name, column, value) in defaults { assignColumn(value, name, column: column, of: related) }
        for victim in doomed { markDeleted(victim) }
        // A join table's RESTRICT keys hold no link back (its rows go with the pair), but a
        // person who knows the schema expects them to: what went is said, per object and table.
        for (victim, table, count) in links {
            writeNotes.add(
                "deleting \(victim.objectID) removes its \(count) \(table) link\(count == 1 ? "" : "s") too "
                    + "(a join table's rows go with the objects they link; rollback() keeps them)")
        }
    }

    /// The objects a delete takes, as SQLite deletes a row with `foreign_keys=ON`: the
    /// row goes, then each key naming it acts in turn, a cascade deleting each child (and
    /// what that takes) before the next key acts. A deny is checked against what the save
    /// leaves: members deleted in this context (the order lines of an order deleted
    /// before it), by this delete's cascades (a child whose other key to the same parent
    /// cascades) or unlinked from a join table no longer hold it, as Core Data checks a
    /// deny rule against the objects its save leaves. A file's RESTRICT key is checked at
    /// its turn, as SQLite does (a cascade after it has not run yet); its NO ACTION key at
    /// the end, as SQLite checks it at the statement's end, or at the save when it is
    /// DEFERRABLE INITIALLY DEFERRED, as SQLite checks it at the commit. A worklist, not
    /// recursion: a cascade may run thousands of objects deep. Objects are added in the
    /// order the recursion visits them (each before what it cascades to). On an engine
    /// whose cascades act later (`runsCascadesAtOnce` false: PostgreSQL), a cascade's
    /// children go at once but their own rules wait until every rule before them acted.
    /// Returns the join-table rows a deny rule let go because this delete takes an end
    /// of their link: by object and join table, how many.
    private func collect(_ object: ManagedObject, into doomed: inout [ManagedObject]) throws -> [(ManagedObject, String, Int)] {
        var seen = Set(doomed.map(ObjectIdentifier.init))
        var links: [(ManagedObject, String, Int)] = []
        func refuse(_ object: ManagedObject, _ relationship: RelationshipDescription, _ members: [ManagedObject]) throws {
            let taken = try refuseDenial(object, relationship, members, seen: seen)
            if taken > 0 { links.append((object, relationship.destination, taken)) }
        }
        var denials: [(object: ManagedObject, relationship: RelationshipDescription, members: [ManagedObject])] = []
        struct Step {
            let object: ManagedObject
            let rules: [(RelationshipDescription, EntityStorage.ReferencingKey.Check)]
            var next = 0
            /// The children a cascade takes, last first.
            var children: [ManagedObject] = []
        }
        func enter(_ object: ManagedObject) -> Step? {
            guard !object.isDeleted, seen.insert(ObjectIdentifier(object)).inserted else { return nil }
            doomed.append(object)
            return Step(object: object, rules: deleteRules(of: object))
        }
        let atOnce = store.runsCascadesAtOnce
        // Depth first (a stack) where cascades act at once; else a queue, the steps of a
        // cascade's children behind every step already waiting (`head` its front: steps
        // done are passed, not removed, which would move every step behind them).
        var stack = [enter(object)].compactMap { $0 }
        var head = 0
        while let top = atOnce ? stack.indices.last : (head < stack.count ? head : nil) {
            if let child = stack[top].children.popLast() {
                if let step = enter(child) { stack.append(step) }
                continue
            }
            guard stack[top].next < stack[top].rules.count else {
                if atOnce { stack.removeLast() } else { head += 1 }
                continue
            }
            let (relationship, check) = stack[top].rules[stack[top].next]
            stack[top].next += 1
            let next = stack[top].object
            switch relationship.deleteRule {
            case .cascade:
                stack[top].children = try relatedObjects(relationship.name, of: next).reversed()
            case .deny:
                let members = try relatedObjects(relationship.name, of: next)
                switch check {
                case .restrict: try refuse(next, relationship, members)
                case .statement: denials.append((next, relationship, members))
                case .commit: break
                }
            case .nullify, .noaction, .setdefault:
                break
            }
        }
        for (next, relationship, members) in denials { try refuse(next, relationship, members) }
        return links
    }

    /// The relationships whose delete rules act when `object` goes, in the order they act:
    /// a file's keys in SQLite's order (`ForeignKeyOrder`), each with when it is checked.
    private func deleteRules(of object: ManagedObject) -> [(RelationshipDescription, EntityStorage.ReferencingKey.Check)] {
        deleteRules(of: object.entity, relationships: currentEntity(of: object).relationships)
    }

    /// The same for rows of `entity` deleted without objects (`deleteall`), whose
    /// `relationships` are those of `entity` or, for an object, of its current entity.
    package func deleteRules(of entity: EntityDescription, relationships: [RelationshipDescription]? = nil) -> [(
        RelationshipDescription, EntityStorage.ReferencingKey.Check
    )] {
        let relationships = (relationships ?? entity.relationships).filter { storage(of: $0, in: entity.name) != nil }
        let keys = mapped(entity).referencingKeys
        guard !keys.isEmpty else { return relationships.map { ($0, .statement) } }
        let placed = relationships.map { relationship -> (RelationshipDescription, Int, EntityStorage.ReferencingKey.Check) in
            guard case .inverseForeignKey(let child, let column, _, _)? = storage(of: relationship, in: entity.name),
                let table = managedObjectModel.entitiesByName[child].map({ mapped($0).relation })?.lowercased(),
                // The child's table, or its entity's name where a view reads the table
                // (a SQLite table without a rowid).
                let index = keys.firstIndex(where: { $0.column == column && [table, child.lowercased()].contains($0.child.lowercased()) })
            else {
                return (relationship, keys.count, .statement)
            }
            return (relationship, index, keys[index].check)
        }
        return placed.enumerated().sorted { ($0.element.1, $0.offset) < ($1.element.1, $1.offset) }.map { ($0.element.0, $0.element.2) }
    }

    /// The deny rules a file checks only at the commit (a key `DEFERRABLE INITIALLY
    /// DEFERRED`, as Django writes every key), checked before the save writes: SQLite's
    /// own answer at the commit names neither the object nor the key ("FOREIGN KEY
    /// constraint failed"), where this names both, as a delete that is checked at once does.
    /// What the save leaves decides, as Core Data checks a deny at its save: members
    /// deleted since, or moved elsewhere, no longer hold it.
    func checkDenialsAtCommit(_ deletes: [ManagedObject]) throws {
        let doomed = Set(deletes.map(ObjectIdentifier.init))
        for object in deletes {
            for (relationship, check) in deleteRules(of: object) where relationship.deleteRule == .deny && check == .commit {
                let members = try relatedObjects(relationship.name, of: object)
                _ = try refuseDenial(object, relationship, members, seen: doomed, by: "save")
            }
        }
    }

    /// Refuses the delete while members of a deny rule that the save leaves hold `object`.
    /// Returns how many members are join-table rows that go only because this delete takes
    /// an end of their link (not unlinked or deleted before).
    private func refuseDenial(
        _ object: ManagedObject, _ relationship: RelationshipDescription, _ members: [ManagedObject], seen: Set<ObjectIdentifier>,
        by operation: String = "delete"
    ) throws -> Int {
        let held = members.filter { !$0.isDeleted && !seen.contains(ObjectIdentifier($0)) }
        let blocking = held.filter { !isUnlinkedJoinRow($0, deleting: seen) }
        guard blocking.isEmpty else {
            // Three IDs and the count of the others: the line keeps room for what lets the
            // delete through (a route's airport held by 45 routes).
            let names = blocking.prefix(3).map(\.objectID).joined(separator: ", ") + (blocking.count > 3 ? " and \(blocking.count - 3) more" : "")
            throw StoreError.validation(
                message: "\(operation): \(object.objectID) cannot be deleted: '\(relationship.name)' denies it while it holds \(names)"
                    + foreignKeyNote(relationship, of: object.entity.name))
        }
        return held.count { !isUnlinkedJoinRow($0) }
    }
}

/// What delete rules need of a file Quarry did not create: a member given its column's
/// default, a join table's row whose link is going, the key a deny comes from.
extension ObjectContext {
    /// Sets a member's link column to `value` (its default) and drops any pending link, so
    /// the relationship reads the column again.
    func assignColumn(_ value: Value, _ relationshipName: String, column: String, of object: ManagedObject) {
        object.pending[column] = value == object.committedValue(column) && !object.isInserted ? nil : value
        object.pendingToOne[relationshipName] = nil
        noteChanged(object)
    }

    /// Whether `row` is a join table's row whose link this context removed through the pair
    /// the table gives (`Playlist.tracks:remove(t)`), or one naming an object deleted
    /// since (whose links go with it): the save deletes it before the rows it names, so it
    /// holds back no delete of theirs.
    func isUnlinkedJoinRow(_ row: ManagedObject, deleting: Set<ObjectIdentifier> = []) -> Bool {
        let storage = mapped(row.entity)
        guard let link = storage.pairLink else { return false }
        let keys = currentEntity(of: row).toOneRelationships.filter { $0.column != nil }
        // The ends as the link view reads them: a table joining an entity to itself links
        // one way only.
        guard keys.count == 2, let s = keys.firstIndex(where: { $0.column == storage.pairSourceColumn }),
            let source = committedTarget(keys[s], of: row), let target = committedTarget(keys[1 - s], of: row)
        else { return false }
        if source.isDeleted || target.isDeleted { return true }
        // An end this delete takes: its links go with it (a many-to-many's rule).
        if deleting.contains(ObjectIdentifier(source)) || deleting.contains(ObjectIdentifier(target)) { return true }
        return unsaved.links.contains { !$0.isAdd && $0.table == link && $0.source === source && $0.target === target }
    }

    /// Where a foreign file's deny rule comes from, for the refusal, in words a person acts
    /// on: the column that names the row, whether the file's foreign key (with its rule) or
    /// `relate()` made the link, and what lets the delete through.
    package func foreignKeyNote(_ relationship: RelationshipDescription, of entity: String) -> String {
        guard let e = managedObjectModel.entitiesByName[entity], mapped(e).layout == .foreignTable, mapped(e).keepsAnyType,
            case .inverseForeignKey(let child, let column, let ownerKey, _)? = storage(of: relationship, in: entity)
        else { return "" }
        let remedy = "delete those \(child) objects or change their \(column) first"
        if relationshipsDeclaredApart.contains(entity + "." + relationship.name) {
            let key = ownerKey ?? mapped(e).keyColumn
            return " (\(child).\(column) names it by its \(key), a link relate() made, which keeps a row others name "
                + "as a foreign key ON DELETE NO ACTION does; \(remedy))"
        }
        let check = mapped(e).referencingKeys.first { $0.child == child && $0.column == column }?.check
        let rule = check == .restrict ? "ON DELETE RESTRICT" : "ON DELETE NO ACTION"
        return " (\(child).\(column) names it, and the file's foreign key on it is \(rule), which keeps a row others name; \(remedy))"
    }
}
