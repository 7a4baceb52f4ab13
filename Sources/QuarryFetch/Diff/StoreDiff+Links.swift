import QuarryModel
import QuarryStore

extension StoreDiff {
    /// Many-to-many members added and removed: the link tables of both sides read as
    /// pairs of keys in order and merged, as objects are. Each link is reported once, on
    /// the side whose (entity, relationship) comes first, and only where both ends are
    /// known by their row keys (what a link table holds).
    mutating func compareLinks(
        _ old: ObjectContext, _ a: EntityDescription, _ new: ObjectContext, _ b: EntityDescription,
        identity: DiffIdentity, options: DiffOptions
    ) throws {
        for r in a.relationships where r.isToMany {
            guard let s = b.relationship(named: r.name), s.isToMany, s.destination == r.destination,
                case .linkTable(let tableA, let sourceA, let targetA)? = old.storage(of: r, in: a.name),
                case .linkTable(let tableB, let sourceB, let targetB)? = new.storage(of: s, in: b.name)
            else { continue }
            if let inverse = r.inverse, (r.destination, inverse) < (a.name, r.name) { continue }
            guard identity.attributes.isEmpty, options.by[r.destination] == nil else {
                notes.append("\(a.name).\(r.name) not compared: its links hold row keys, and the objects are matched by another key")
                continue
            }
            var linksA = KeyOrderedRows(
                context: old, entity: "\(a.name).\(r.name)", from: quoteIdentifier(tableA), columns: [sourceA, targetA], keyCount: 2,
                textKeys: [false, false], fix: identity.fix, repeats: true)
            var linksB = KeyOrderedRows(
                context: new, entity: "\(b.name).\(s.name)", from: quoteIdentifier(tableB), columns: [sourceB, targetB], keyCount: 2,
                textKeys: [false, false], fix: identity.fix, repeats: true)
            var x = try linksA.next()
            var y = try linksB.next()
            while x != nil || y != nil {
                let order: Int
                if let x, let y { order = DiffValues.compare(x[0..<2], y[0..<2]) } else { order = x == nil ? 1 : -1 }
                if order < 0, let link = x {
                    changes.append(
                        ObjectChange(.changed, entity: a.name, key: [link[0]], property: r.name, old: Self.reference(r.destination, link[1])))
                    x = try linksA.next()
                } else if order > 0, let link = y {
                    changes.append(
                        ObjectChange(.changed, entity: b.name, key: [link[0]], property: r.name, new: Self.reference(r.destination, link[1])))
                    y = try linksB.next()
                } else {
                    x = try linksA.next()
                    y = try linksB.next()
                }
            }
        }
    }
}
