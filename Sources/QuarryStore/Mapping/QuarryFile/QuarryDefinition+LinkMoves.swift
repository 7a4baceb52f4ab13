import QuarryEngine
import QuarryModel

/// A definition that changes where a to-many relationship's links are kept moves them
/// there in its own transaction, so none is lost (issue 60, item 9): a to-many whose
/// to-one inverse goes (the other end redefined without it) keeps its links in a link
/// table of its own, read from the column that held them before the column is dropped;
/// one whose many-to-many pair changes (an inverse gone, or one gained) takes them from
/// the pair's link table into the one now named for it. A refused or failed definition
/// rolls the move back with the rest.
extension QuarryDefinition {
    /// Moves the links of `entities`' to-many relationships whose storage changes with
    /// this definition; run before any table is written (a column about to be dropped
    /// still holds its links). Another program's tables (`others`) keep theirs. Returns
    /// the statements to run once the tables are written: a to-many that gains a to-one
    /// inverse (its other end redefined with it again) fills the new column from its link
    /// table; refused, before anything is written, when a row is in more than one
    /// object's set, which the to-one cannot hold.
    func moveLinks(
        _ entities: [EntityDescription], hierarchical: Bool, others: Set<String>, on engine: some QuarryDefinitionStatements
    ) throws -> [String] {
        // Where each relationship's links are now, read from the model before it changes,
        // with the table whose rows hold a to-one column.
        var now: [(entity: String, name: String, storage: RelationshipStorage, rows: String)] = []
        for e in entities where !others.contains(e.name) && store.keepsDeclaration(of: e.name) {
            for r in e.relationships where r.isToMany && !others.contains(r.destination) {
                guard let old = store.managedObjectModel.entitiesByName[e.name]?.relationship(named: r.name),
                    old.isToMany, old.destination == r.destination, let storage = store.storage(of: old, in: e.name)
                else { continue }
                now.append((e.name, r.name, storage, store.managedObjectModel.root(of: r.destination)))
            }
        }
        guard !now.isEmpty else { return [] }
        let tables = engine
        let key = quoteIdentifier(EntityStorage.quarryKeyColumn)
        var later: [String] = []
        try withModelAfter(entities, hierarchical: hierarchical) { table, _ in
            // A many-to-many pair's table is moved once, from either end.
            var filled: Set<String> = []
            for kept in now {
                guard let r = entities.first(where: { $0.name == kept.entity })?.relationship(named: kept.name),
                    let storage = store.storage(of: r, in: kept.entity), storage != kept.storage
                else { continue }
                switch (kept.storage, storage) {
                case (.inverseForeignKey(_, let column, nil, _), .linkTable(let link, let sourceColumn, let targetColumn)):
                    guard filled.insert(link).inserted else { continue }
                    let c = quoteIdentifier(column)
                    try fill(
                        link, sourceColumn, targetColumn, from: "SELECT \(c), \(key) FROM \(tables.relation(kept.rows)) WHERE \(c) IS NOT NULL",
                        of: kept.entity, r, table: table, on: engine)
                case (.linkTable(let old, let oldSource, let oldTarget), .linkTable(let link, let sourceColumn, let targetColumn)) where old != link:
                    guard filled.insert(link).inserted else { continue }
                    try fill(
                        link, sourceColumn, targetColumn, from: "SELECT \(oldSource), \(oldTarget) FROM \(tables.relation(old))",
                        of: kept.entity, r, table: table, on: engine)
                    // Moved, not copied: no relationship reads the old table any more.
                    try tables.statements.run("DELETE FROM \(tables.relation(old))", [])
                case (.linkTable(let old, let oldSource, let oldTarget), .inverseForeignKey(_, let column, nil, let inverse)):
                    let shared = try tables.statements.count(
                        "SELECT count(*) FROM (SELECT \(oldTarget) FROM \(tables.relation(old)) GROUP BY \(oldTarget) HAVING count(*) > 1) AS shared")
                    if shared > 0 {
                        throw StoreError.migrationRefused(
                            entity: r.destination,
                            reason:
                                "'\(inverse)' would give each \(r.destination) one \(kept.entity), but \(shared) \(r.destination) \(shared == 1 ? "row is" : "rows are") in the '\(r.name)' of more than one \(kept.entity); nothing was changed"
                        )
                    }
                    let (rows, c) = (tables.relation(table(r.destination)), quoteIdentifier(column))
                    later.append(
                        "UPDATE \(rows) SET \(c) = (SELECT l.\(oldSource) FROM \(tables.relation(old)) l WHERE l.\(oldTarget) = \(rows).\(key)) "
                            + "WHERE \(key) IN (SELECT \(oldTarget) FROM \(tables.relation(old)))")
                    later.append("DELETE FROM \(tables.relation(old))")
                default:
                    continue
                }
            }
        }
        return later
    }

    /// Makes `link` (the link table of `entity`'s `relationship`) hold exactly the links
    /// `select` gives, this end's key first.
    private func fill(
        _ link: String, _ sourceColumn: String, _ targetColumn: String, from select: String, of entity: String,
        _ relationship: RelationshipDescription, table: (String) -> String, on engine: some QuarryDefinitionStatements
    ) throws {
        let (source, target) = sourceColumn == "source" ? (entity, relationship.destination) : (relationship.destination, entity)
        try engine.createLinkTable(link, sourceTable: table(source), targetTable: table(target), moved: [])
        // The table may hold the links of an earlier life of the relationship: only those
        // it has now are its.
        let statements = engine.statements
        try statements.run("DELETE FROM \(engine.relation(link))", [])
        try statements.run("INSERT INTO \(engine.relation(link)) (\(sourceColumn), \(targetColumn)) \(select)", [])
    }
}
