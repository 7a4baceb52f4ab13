import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// `diff(a, b)`: what changed from store `old` to store `new`, object by object. The
/// models first (`ModelDifference`), then per entity both stores have, the objects only
/// in `new` (inserted), only in `old` (deleted), and in both with an attribute, a to-one's
/// target or a many-to-many's members changed. Objects are matched by their identity
/// (`DiffIdentity`); both sides are read in key order a chunk at a time and merged, so no
/// table is ever held whole, and two stores on different engines compare alike. Two
/// SQLite files are compared by SQL where that gives the same answer (`ChangedRows`):
/// only the rows that differ reach Swift.
public struct StoreDiff: Sendable {
    public var model: ModelDifference
    public var changes: [ObjectChange]
    /// What was not compared, and why (a to-one to an entity matched by another key).
    public var notes: [String]
    /// The entities left out for want of a key (`unkeyedNote` names them), in order.
    public var unkeyed: [String] = []
    /// Those of `unkeyed` whose row counts differ: rows added or deleted there, which no
    /// key can say which, are still a difference.
    public var unkeyedCounts: [RowCountDifference] = []
    /// The entities whose changed rows SQL found (`ChangedRows`), the others' rows all read.
    package var comparedInSQL: [String] = []

    /// Compares every entity the two stores share (by name; only the roots of
    /// hierarchies, whose rows hold their sub-entities').
    public static func compare(_ old: ObjectContext, _ new: ObjectContext, options: DiffOptions = DiffOptions()) throws -> StoreDiff {
        var model = ModelDifference(from: CoreDataModel(of: old), to: CoreDataModel(of: new))
        // What `relate()` declared beside a database (a sidecar) is how Quarry reads a
        // column both copies hold, not their schemas: a copy without the sidecar, or with
        // another one, has the same model. Its to-ones are compared where both sides read
        // them; where one does, its column is compared as the attribute it is.
        let apart = old.relationshipsDeclaredApart.union(new.relationshipsDeclaredApart)
        model.changes.removeAll { c in c.property.map { apart.contains(c.entity + "." + $0) } ?? false }
        // So is what `format()` declared (a text column read as dates): Quarry's reading of
        // the same bytes, not a change to the file. Its attribute's type or default as read
        // is no difference; one note names the attributes so read.
        let formatted = Set(
            [old, new].flatMap { context in
                context.mapping.declaredFormats.flatMap { entity, columns in columns.keys.map { entity + "." + $0 } }
            })
        let readings = model.changes.filter { c in c.kind == .changed && (c.property.map { formatted.contains(c.entity + "." + $0) } ?? false) }
        model.changes.removeAll { c in c.kind == .changed && (c.property.map { formatted.contains(c.entity + "." + $0) } ?? false) }
        var diff = StoreDiff(model: model, changes: [], notes: [])
        let read = Array(Set(readings.compactMap { c in c.property.map { c.entity + "." + $0 } })).sorted()
        if !read.isEmpty {
            diff.notes.append(
                "\(read.joined(separator: ", ")) read as format() declares (beside the file, not in it) for one store: not a difference of the models"
            )
        }
        for (side, context, other) in [("old", old, new), ("new", new, old)] {
            // One note a relate(): its to-one (its inverse, a many-to-many it made go with it).
            for name in context.relationshipsDeclaredApart.sorted()
            where Self.relationship(name, in: context).map({ !$0.isToMany }) == true && Self.relationship(name, in: other) == nil {
                diff.notes.append(
                    "\(name) is declared by relate() for the \(side) store only (beside its file, not in it): not a difference of the models")
            }
        }
        for name in options.by.keys.sorted() where (try? old.entity(named: name)) == nil || (try? new.entity(named: name)) == nil {
            let known = old.entities.map(\.name).filter { (try? new.entity(named: $0)) != nil }
            throw StoreError.unknownEntity(name: name, suggestion: closestEntityName(to: name, in: known))
        }
        let wanted = options.entities.map(Set.init)
        var unkeyed: [(name: String, fix: String)] = []
        for entity in old.entities.sorted(by: { $0.name < $1.name })
        where entity.parent == nil && (wanted?.contains(entity.name) ?? true) {
            guard let other = try? new.entity(named: entity.name), other.parent == nil else { continue }
            // A view's rows are what its query makes of tables compared already, and have
            // no key of their own: a whole-store diff leaves it out, said, unless `by` or
            // `entities` names it (a file with views otherwise could not be compared).
            if wanted == nil, options.by[entity.name] == nil, old.mapped(entity).layout == .foreignView || new.mapped(other).layout == .foreignView {
                diff.notes.append(
                    "\(entity.name) not compared: a view, whose rows have no key of their own (by = { \(entity.name) = \"key\" } compares it)")
                continue
            }
            // A table no key identifies (rows known by their place) cannot be matched, but
            // the rest of the store can: a whole-store diff leaves such tables out, named in
            // one note with the `by` that would compare them; `by` or `entities` naming one
            // still refuses it.
            if wanted == nil, options.by[entity.name] == nil, let fix = Self.identityRefusal(old, entity, new, other) {
                unkeyed.append((entity.name, fix))
                let counts = (try FetchRequest(entityName: entity.name).count(in: old), try FetchRequest(entityName: other.name).count(in: new))
                if counts.0 != counts.1 { diff.unkeyedCounts.append(RowCountDifference(entity: entity.name, old: counts.0, new: counts.1)) }
                continue
            }
            try diff.compareEntity(old, entity, new, other, options: options)
        }
        if let first = unkeyed.first {
            diff.unkeyed = unkeyed.map(\.name)
            diff.notes.append(Self.unkeyedNote(diff.unkeyed, fix: first.fix))
        }
        return diff
    }

    /// The note naming the entities left out for want of a key, with `fix`, the option
    /// (or command) that compares one.
    public static func unkeyedNote(_ names: [String], fix: String) -> String {
        "not compared, having no key to match objects by (rows known by place): \(names.joined(separator: ", ")) "
            + "(\(fix) compares \(names.count == 1 ? "it" : "one"))"
    }

    /// The `by` that would give `entity` an identity, when either side has none for it.
    private static func identityRefusal(_ old: ObjectContext, _ a: EntityDescription, _ new: ObjectContext, _ b: EntityDescription) -> String? {
        for (context, entity, side) in [(old, a, "old"), (new, b, "new")] {
            do {
                _ = try DiffIdentity(context, entity, by: nil, side: side)
            } catch DiffError.ambiguousIdentity(_, _, let fix) {
                return fix
            } catch {
                return nil
            }
        }
        return nil
    }

    /// Compares the objects of entity `oldEntity` of `old` with those of `newEntity` of
    /// `new` (two entities of one store, or of two), their models' difference left empty.
    public static func compare(
        _ old: ObjectContext, entity oldEntity: String, _ new: ObjectContext, entity newEntity: String,
        options: DiffOptions = DiffOptions()
    ) throws -> StoreDiff {
        var diff = StoreDiff(model: ModelDifference(from: CoreDataModel(entities: []), to: CoreDataModel(entities: [])), changes: [], notes: [])
        try diff.compareEntity(old, try old.entity(named: oldEntity), new, try new.entity(named: newEntity), options: options)
        return diff
    }

    /// Compares the objects two fetch requests select (their predicates, and their first
    /// `limit` objects in their sort where they have one), `old` in store `a` and `new` in
    /// store `b`: an object one selects and the other does not is inserted or deleted.
    public static func compare(
        _ old: FetchRequest, in a: ObjectContext, _ new: FetchRequest, in b: ObjectContext, options: DiffOptions = DiffOptions()
    ) throws -> StoreDiff {
        var diff = StoreDiff(model: ModelDifference(from: CoreDataModel(entities: []), to: CoreDataModel(entities: [])), changes: [], notes: [])
        let sources = (try DiffSource(old, in: a), try DiffSource(new, in: b))
        try diff.compareEntity(
            a, try a.entity(named: old.entityName), b, try b.entity(named: new.entityName), options: options, sources: sources)
        return diff
    }

    /// Whether nothing differs, in the models, the objects or the row counts of tables
    /// left uncompared.
    public var isEmpty: Bool { model.isEmpty && changes.isEmpty && unkeyedCounts.isEmpty }

    private mutating func compareEntity(
        _ old: ObjectContext, _ a: EntityDescription, _ new: ObjectContext, _ b: EntityDescription, options: DiffOptions,
        sources: (DiffSource, DiffSource)? = nil
    ) throws {
        let sourceA = sources?.0 ?? DiffSource(old.mapped(a))
        let sourceB = sources?.1 ?? DiffSource(new.mapped(b))
        let idA = try DiffIdentity(old, a, by: options.by[a.name] ?? options.by[b.name], side: "old", qualified: sourceA.qualified)
        let idB = try DiffIdentity(new, b, by: options.by[b.name] ?? options.by[a.name], side: "new", qualified: sourceB.qualified)
        let keyNames = Set(idA.attributes)
        let attributes = a.attributes.map(\.name).filter { !keyNames.contains($0) && b.attribute(named: $0) != nil }
        // A to-one compares by its target's key: the key its column holds (its row key, or
        // its table's own key), or the key `by` names for the target's entity, read from
        // the target's row (`targetKey`), on both sides.
        var toOnes: [RelationshipDescription] = []
        var targetKeys: [String: [String]] = [:]
        for r in a.toOneRelationships {
            guard let s = b.relationship(named: r.name), !s.isToMany, s.destination == r.destination else { continue }
            if let key = options.by[r.destination] {
                guard Self.targetKey(old, a, r, key: key, qualifier: nil) != nil, Self.targetKey(new, b, r, key: key, qualifier: nil) != nil else {
                    notes.append("\(a.name).\(r.name) not compared: its target \(r.destination) is matched by another key")
                    continue
                }
                targetKeys[r.name] = key
            }
            toOnes.append(r)
        }
        let storageA = old.mapped(a)
        let storageB = new.mapped(b)
        // Each row's entity, where a Core Data table holds a hierarchy (`rowEntity`): last.
        let rowEntities =
            Self.rowEntity(old, a, qualifier: nil) != nil && Self.rowEntity(new, b, qualifier: nil) != nil
        func columns(
            _ context: ObjectContext, _ storage: EntityStorage, _ entity: EntityDescription, _ identity: DiffIdentity, qualified: Bool
        ) -> [String] {
            let qualifier = qualified ? storage.relation : nil
            let prefix = qualifier.map { quoteIdentifier($0) + "." } ?? ""
            var columns = identity.columns
            columns += attributes.map { DiffIdentity.expression(storage, $0, of: entity, qualifier: qualifier) }
            for r in toOnes {
                if let key = targetKeys[r.name], let read = Self.targetKey(context, entity, r, key: key, qualifier: qualifier) {
                    columns.append(read)
                } else {
                    columns.append(prefix + storage.column(entity.relationship(named: r.name)?.keyColumn ?? r.keyColumn))
                }
            }
            if rowEntities { columns.append(Self.rowEntity(context, entity, qualifier: qualifier) ?? "NULL") }
            return columns
        }
        var rowsA = KeyOrderedRows(
            context: old, entity: a.name, from: sourceA.from, arguments: sourceA.arguments,
            columns: columns(old, storageA, a, idA, qualified: sourceA.qualified), keyCount: idA.columns.count,
            textKeys: idA.textKeys, fix: idA.fix)
        var rowsB = KeyOrderedRows(
            context: new, entity: b.name, from: sourceB.from, arguments: sourceB.arguments,
            columns: columns(new, storageB, b, idB, qualified: sourceB.qualified), keyCount: idB.columns.count,
            textKeys: idB.textKeys, fix: idB.fix)
        let keyCount = idA.columns.count
        guard keyCount == idB.columns.count else {
            throw DiffError.ambiguousIdentity(entity: a.name, reason: "its keys have \(keyCount) and \(idB.columns.count) columns", fix: idA.fix)
        }
        let ordered = Self.orderedRelationships(old, a, new, b, identity: idA)
        let comparison = RowComparison(
            entity: b.name, deletedEntity: a.name, keyCount: keyCount, attributes: attributes, toOnes: toOnes, rowEntities: rowEntities,
            tolerances: attributes.map { options.tolerance[$0] }, types: attributes.map { b.attribute(named: $0)?.type },
            renamed: Dictionary(
                model.changes.compactMap { c in
                    guard c.kind == .renamed, c.property == nil, let from = c.old, let to = c.new else { return nil }
                    return (from, to)
                }, uniquingKeysWith: { first, _ in first }))
        // Two SQLite files: SQL finds the rows that differ (`ChangedRows`), where that gives
        // the same answer (not for a to-one read through its target's row: the new side's
        // target table is another schema's there); else every row of both sides, merged here.
        var comparedInSQL = false
        if sources == nil, ordered.isEmpty, targetKeys.isEmpty, !rowEntities, options.findsChangesInSQL, keyCount == 1 {
            // The objects only in `new` come last, each run in key order: merged by key.
            var inserted: [ObjectChange] = []
            let start = changes.count
            comparedInSQL = try ChangedRows.pairs(old, a, new, b, keys: (idA.attributes, idB.attributes), attributes: attributes, toOnes: toOnes) {
                if $0 == nil { inserted += comparison.changes(nil, $1) } else { changes += comparison.changes($0, $1) }
            }
            if comparedInSQL {
                self.comparedInSQL.append(a.name)
                changes.replaceSubrange(start..., with: Self.merged(Array(changes[start...]), inserted))
            }
        }
        var x: [Value]?
        var y: [Value]?
        if !comparedInSQL {
            x = try rowsA.next()
            y = try rowsB.next()
        }
        while x != nil || y != nil {
            let order: Int
            if let x, let y { order = DiffValues.compare(x[0..<keyCount], y[0..<keyCount]) } else { order = x == nil ? 1 : -1 }
            if order < 0 {
                changes += comparison.changes(x, nil)
                x = try rowsA.next()
            } else if order > 0 {
                changes += comparison.changes(nil, y)
                y = try rowsB.next()
            } else {
                changes += comparison.changes(x, y)
                if !ordered.isEmpty, let key = x?[0], case .integer(let owner) = key {
                    try compareOrder(old, a, new, b, key: owner, relationships: ordered)
                }
                x = try rowsA.next()
                y = try rowsB.next()
            }
        }
        // Links and order belong to whole stores' objects: a request's selection has none of its own.
        if sources == nil { try compareLinks(old, a, new, b, identity: idA, options: options) }
    }

    /// Two runs of changes, each in key order, as one in key order (a key's changes stay
    /// together, `first`'s before `second`'s).
    static func merged(_ first: [ObjectChange], _ second: [ObjectChange]) -> [ObjectChange] {
        guard !second.isEmpty else { return first }
        var result: [ObjectChange] = []
        result.reserveCapacity(first.count + second.count)
        var (i, j) = (0, 0)
        while i < first.count || j < second.count {
            if j == second.count || (i < first.count && DiffValues.compare(first[i].key[...], second[j].key[...]) <= 0) {
                result.append(first[i])
                i += 1
            } else {
                result.append(second[j])
                j += 1
            }
        }
        return result
    }

    /// `context`'s relationship `Entity.name`, if its model has it.
    private static func relationship(_ qualified: String, in context: ObjectContext) -> RelationshipDescription? {
        guard let dot = qualified.lastIndex(of: ".") else { return nil }
        let entity = try? context.entity(named: String(qualified[..<dot]))
        return entity?.relationship(named: String(qualified[qualified.index(after: dot)...]))
    }

    /// A target as `Entity/key` (nil stays nil).
    static func reference(_ entity: String, _ key: Value) -> Value {
        key.isNull ? .null : .text("\(entity)/\(DiffValues.text(key))")
    }
}
