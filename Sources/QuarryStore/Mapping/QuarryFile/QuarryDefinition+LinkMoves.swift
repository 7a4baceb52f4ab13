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
    /// Moves the links of `entities`' to-many relationships whose link table changes with
    /// this definition; run before any table is written (a column about to be dropped
    /// still holds its links). Another program's tables (`others`) keep theirs.
    func moveLinks(
        _ entities: [EntityDescription], hierarchical: Bool, others: Set<String>, on engine: some QuarryDefinitionStatements
    ) throws {
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
        guard !now.isEmpty else { return }
        let tables = engine.tables
        let key = quoteIdentifier(EntityStorage.quarryKeyColumn)
        try withModelAfter(entities, hierarchical: hierarchical) { table, _ in
            // A many-to-many pair's table is moved once, from either end.
            var filled: Set<String> = []
            for kept in now {
                guard let r = entities.first(where: { $0.name == kept.entity })?.relationship(named: kept.name),
                    case .linkTable(let link, let sourceColumn, let targetColumn)? = store.storage(of: r, in: kept.entity)
                else { continue }
                // The columns holding this end's keys and the other end's, where the links are now.
                let select: String
                switch kept.storage {
                case .inverseForeignKey(_, let column, nil, _):
                    let c = quoteIdentifier(column)
                    select = "SELECT \(c), \(key) FROM \(tables.relation(kept.rows)) WHERE \(c) IS NOT NULL"
                case .linkTable(let old, let oldSource, let oldTarget) where old != link:
                    select = "SELECT \(oldSource), \(oldTarget) FROM \(tables.relation(old))"
                default:
                    continue
                }
                guard filled.insert(link).inserted else { continue }
                let (source, target) = sourceColumn == "source" ? (kept.entity, r.destination) : (r.destination, kept.entity)
                try engine.createLinkTable(link, sourceTable: table(source), targetTable: table(target), moved: [])
                // The table may hold the links of an earlier life of the relationship: only
                // those it has now are its.
                try tables.statements.run("DELETE FROM \(tables.relation(link))", [])
                try tables.statements.run("INSERT INTO \(tables.relation(link)) (\(sourceColumn), \(targetColumn)) \(select)", [])
                // Moved, not copied: no relationship reads the old table any more.
                if case .linkTable(let old, _, _) = kept.storage { try tables.statements.run("DELETE FROM \(tables.relation(old))", []) }
            }
        }
    }
}
