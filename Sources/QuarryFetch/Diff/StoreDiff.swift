import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// `diff(a, b)`: what changed from store `old` to store `new`, object by object. The
/// models first (`ModelDifference`), then per entity both stores have, the objects only
/// in `new` (inserted), only in `old` (deleted), and in both with an attribute, a to-one's
/// target or a many-to-many's members changed. Objects are matched by their identity
/// (`DiffIdentity`); both sides are read in key order a chunk at a time and merged, so no
/// table is ever held whole, and two stores on different engines compare alike.
public struct StoreDiff: Sendable {
    public var model: ModelDifference
    public var changes: [ObjectChange]
    /// What was not compared, and why (a to-one to an entity matched by another key).
    public var notes: [String]

    /// Compares every entity the two stores share (by name; only the roots of
    /// hierarchies, whose rows hold their sub-entities').
    public static func compare(_ old: ObjectContext, _ new: ObjectContext, options: DiffOptions = DiffOptions()) throws -> StoreDiff {
        let model = ModelDifference(from: CoreDataModel(of: old), to: CoreDataModel(of: new))
        var diff = StoreDiff(model: model, changes: [], notes: [])
        for name in options.by.keys.sorted() where (try? old.entity(named: name)) == nil || (try? new.entity(named: name)) == nil {
            let known = old.entities.map(\.name).filter { (try? new.entity(named: $0)) != nil }
            throw StoreError.unknownEntity(name: name, suggestion: closestMatch(to: name, in: known))
        }
        let wanted = options.entities.map(Set.init)
        for entity in old.entities.sorted(by: { $0.name < $1.name })
        where entity.parent == nil && (wanted?.contains(entity.name) ?? true) {
            guard let other = try? new.entity(named: entity.name), other.parent == nil else { continue }
            try diff.compareEntity(old, entity, new, other, options: options)
        }
        return diff
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

    /// Whether nothing differs, in the models or the objects.
    public var isEmpty: Bool { model.isEmpty && changes.isEmpty }

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
        // A to-one compares by its target's key: only where the target is known by the key
        // its column holds (its row key, or its table's own key), on both sides.
        var toOnes: [RelationshipDescription] = []
        for r in a.toOneRelationships {
            guard let s = b.relationship(named: r.name), !s.isToMany, s.destination == r.destination else { continue }
            guard options.by[r.destination] == nil else {
                notes.append("\(a.name).\(r.name) not compared: its target \(r.destination) is matched by another key")
                continue
            }
            toOnes.append(r)
        }
        let storageA = old.mapped(a)
        let storageB = new.mapped(b)
        func columns(_ storage: EntityStorage, _ entity: EntityDescription, _ identity: DiffIdentity, qualified: Bool) -> [String] {
            identity.columns + attributes.map { DiffIdentity.expression(storage, $0, of: entity, qualified: qualified) }
                + toOnes.map { r in
                    (qualified ? quoteIdentifier(storage.relation) + "." : "")
                        + storage.column(entity.relationship(named: r.name)?.keyColumn ?? r.keyColumn)
                }
        }
        var rowsA = KeyOrderedRows(
            context: old, entity: a.name, from: sourceA.from, arguments: sourceA.arguments,
            columns: columns(storageA, a, idA, qualified: sourceA.qualified), keyCount: idA.columns.count,
            textKeys: idA.textKeys, fix: idA.fix)
        var rowsB = KeyOrderedRows(
            context: new, entity: b.name, from: sourceB.from, arguments: sourceB.arguments,
            columns: columns(storageB, b, idB, qualified: sourceB.qualified), keyCount: idB.columns.count,
            textKeys: idB.textKeys, fix: idB.fix)
        let keyCount = idA.columns.count
        guard keyCount == idB.columns.count else {
            throw DiffError.ambiguousIdentity(entity: a.name, reason: "its keys have \(keyCount) and \(idB.columns.count) columns", fix: idA.fix)
        }
        let ordered = Self.orderedRelationships(old, a, new, b, identity: idA)
        let tolerances = attributes.map { options.tolerance[$0] }
        let types = attributes.map { b.attribute(named: $0)?.type }
        var x = try rowsA.next()
        var y = try rowsB.next()
        while x != nil || y != nil {
            let order: Int
            if let x, let y { order = DiffValues.compare(x[0..<keyCount], y[0..<keyCount]) } else { order = x == nil ? 1 : -1 }
            if order < 0, let row = x {
                changes.append(ObjectChange(.deleted, entity: a.name, key: Array(row[0..<keyCount])))
                x = try rowsA.next()
            } else if order > 0, let row = y {
                changes.append(ObjectChange(.inserted, entity: b.name, key: Array(row[0..<keyCount])))
                y = try rowsB.next()
            } else if let was = x, let now = y {
                let key = Array(was[0..<keyCount])
                for (i, name) in attributes.enumerated() {
                    let (p, q) = (was[keyCount + i], now[keyCount + i])
                    if !DiffValues.equal(p, q, tolerance: tolerances[i]) {
                        changes.append(
                            ObjectChange(
                                .changed, entity: b.name, key: key, property: name, old: DiffValues.shown(p, as: types[i]),
                                new: DiffValues.shown(q, as: types[i])))
                    }
                }
                for (i, r) in toOnes.enumerated() {
                    let (p, q) = (was[keyCount + attributes.count + i], now[keyCount + attributes.count + i])
                    if !DiffValues.equal(p, q, tolerance: nil) {
                        changes.append(
                            ObjectChange(
                                .changed, entity: b.name, key: key, property: r.name, old: Self.reference(r.destination, p),
                                new: Self.reference(r.destination, q)))
                    }
                }
                if !ordered.isEmpty, case .integer(let owner) = key[0] {
                    try compareOrder(old, a, new, b, key: owner, relationships: ordered)
                }
                x = try rowsA.next()
                y = try rowsB.next()
            }
        }
        // Links and order belong to whole stores' objects: a request's selection has none of its own.
        if sources == nil { try compareLinks(old, a, new, b, identity: idA, options: options) }
    }

    /// A target as `Entity/key` (nil stays nil).
    static func reference(_ entity: String, _ key: Value) -> Value {
        key.isNull ? .null : .text("\(entity)/\(DiffValues.text(key))")
    }
}
