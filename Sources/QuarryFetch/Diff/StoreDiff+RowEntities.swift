import QuarryModel
import QuarryStore

extension StoreDiff {
    /// For a Core Data entity whose table holds sub-entities' rows too: each row's entity,
    /// by name, as SQL (a `CASE` of its `Z_ENT`), compared as one more column, so a row
    /// whose entity changed from one store to the other (the same `Z_PK`, another
    /// sub-entity) shows. Core Data never changes an object's entity (its object ID names
    /// it): such a row is one object deleted and another inserted, reported so
    /// (`RowComparison`). By name, not number: two versions of a model may number their
    /// entities apart. Nil for other entities.
    static func rowEntity(_ context: ObjectContext, _ entity: EntityDescription, qualifier: String?) -> String? {
        guard case .coreData = context.mapped(entity).layout else { return nil }
        func descends(_ e: EntityDescription) -> Bool {
            var current: EntityDescription? = e
            var steps = 0
            while let c = current, steps <= context.entities.count {
                if c.name == entity.name { return true }
                current = c.parent.flatMap { try? context.entity(named: $0) }
                steps += 1
            }
            return false
        }
        var cases: [String] = []
        for e in context.entities where descends(e) {
            guard case .coreData(let number) = context.mapped(e).layout else { continue }
            cases.append("WHEN \(number) THEN '\(e.name.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''"))'")
        }
        guard cases.count > 1 else { return nil }
        let column = (qualifier.map { quoteIdentifier($0) + "." } ?? "") + quoteIdentifier(EntityStorage.entityColumn)
        return "(CASE \(column) \(cases.joined(separator: " ")) END)"
    }
}
