import QuarryEngine

/// The link tables of Quarry's to-many relationships without an inverse, seen from their
/// destination. No relationship of a deleted row takes these links with it; left behind,
/// a row made again with its key (another program's text key, a reused rowid) would be
/// linked in its place. A save's deletes and `deleteall`'s remove them alike.
struct LinksWithoutInverse {
    let context: ObjectContext
    private var found: [String: [(table: String, column: String)]] = [:]

    init(context: ObjectContext) {
        self.context = context
    }

    /// Removes the links naming `keys` of `entity` (each row's own entity) as their target.
    mutating func remove(_ keys: [Int64], of entity: String, in statements: some WriteStatements) throws {
        if found[entity] == nil { found[entity] = tables(toward: entity) }
        for (table, column) in found[entity] ?? [] {
            try forEachChunk(keys) { chunk in
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                try statements.run("DELETE FROM \(quoteIdentifier(table)) WHERE \(column) IN (\(marks))", chunk.map { .integer($0) })
            }
        }
    }

    /// The link tables, and their columns, naming rows of `entity` as the destination of a
    /// to-many relationship without an inverse that a Quarry entity declares.
    private func tables(toward entity: String) -> [(table: String, column: String)] {
        // A hierarchy's members share their parent's link tables: each once.
        var seen = Set<String>()
        return context.managedObjectModel.entityOrder.flatMap { owner -> [(table: String, column: String)] in
            guard context.store.keepsDeclaration(of: owner), let declared = context.managedObjectModel.entitiesByName[owner] else { return [] }
            return declared.relationships.compactMap { r in
                guard r.isToMany, r.inverse == nil, context.isKind(entity, of: r.destination),
                    case .linkTable(let table, _, let target)? = context.storage(of: r, in: owner),
                    seen.insert(table + "\u{0}" + target).inserted
                else { return nil }
                return (table, target)
            }
        }
    }
}
