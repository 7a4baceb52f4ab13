import QuarryModel

/// `entity` on a table of a SQLite file that another program made (`people` in
/// fiftyville.db): the table stays that program's. Its key, its columns' types and the
/// relationships its foreign keys give stay as read; a definition may add columns (and
/// rename one with `renamedFrom`), and drops a column only when its options name it
/// (`drop = { "director" }`), since a name left out is more often a typo than a wish, and
/// the other program's data would go with it. No declaration of the table is kept
/// (`ForeignFileStore.keepDeclaration`): the next open reads it from the file again, so
/// what `.schema` printed for it, run back, changes nothing.
extension ObjectContext {
    /// The definition `define` writes for another program's table: the table as read with
    /// `definition`'s new attributes, renames and the drops `dropping` names; the table as
    /// read when it changes nothing. Nil when `definition` is no such table's. Refused in
    /// one line, before anything is written, where it would drop a column `dropping` does
    /// not name, change a column's type, or add a relationship (`relate()` makes those).
    func definitionOfOtherProgramsTable(_ definition: EntityDescription, dropping: Set<String>) throws -> EntityDescription? {
        guard store.isOtherProgramsTable(definition.name), let read = managedObjectModel.entitiesByName[definition.name] else { return nil }
        let storage = mapped(read)
        // A SQLite file's own table; a server's is refused whole by its store, a view by `define`.
        guard storage.layout == .foreignTable, !storage.columnsHoldTheirTypes, read.parent == nil else { return nil }
        func refused(_ reason: String) -> StoreError {
            .migrationRefused(entity: definition.name, reason: reason + "; nothing was changed")
        }
        var attributes = read.attributes
        var renamedFrom: Set<String> = []
        var added: [String] = []
        for a in definition.attributes {
            if let old = read.attribute(named: a.name) {
                if old.type != a.type {
                    throw refused(
                        "'\(a.name)' is \(old.type.rawValue) in the file's table, which Quarry did not make, and keeps its columns' types (not \(a.type.rawValue))"
                    )
                }
                continue
            }
            if let from = a.renamedFrom, let old = read.attribute(named: from), definition.attribute(named: from) == nil {
                if old.type != a.type {
                    throw refused("'\(a.name)' is renamed from '\(from)', which is \(old.type.rawValue) in the file's table (not \(a.type.rawValue))")
                }
                renamedFrom.insert(from)
                attributes = attributes.map { $0.name == from ? a : $0 }
                continue
            }
            attributes.append(a)
            added.append(a.name)
        }
        for r in definition.relationships where read.relationship(named: r.name) == nil {
            throw refused(
                "'\(r.name)' is no relationship of the file's table, which Quarry did not make; relate(\"\(definition.name)\", column, \"\(r.destination)\", key) makes one through its columns"
            )
        }
        let declared = Set(definition.attributes.map(\.name) + definition.relationships.map(\.name))
        if let name = dropping.sorted().first(where: { read.attribute(named: $0) == nil || declared.contains($0) }) {
            throw refused(
                read.attribute(named: name) == nil
                    ? "drop names '\(name)', which is no column of \(definition.name)" : "drop names '\(name)', which the definition declares")
        }
        let left = read.attributes.map(\.name).filter { !declared.contains($0) && !renamedFrom.contains($0) }
        let unasked = left.filter { !dropping.contains($0) }
        if !unasked.isEmpty {
            let counts = try valueCounts(of: unasked, in: read)
            let listed = zip(unasked, counts).map { "\($0) (\($1) value\($1 == 1 ? "" : "s"))" }.joined(separator: ", ")
            let guesses = added.compactMap { a in closestMatch(to: a, in: unasked).map { "'\($0)' for '\(a)'" } }
            let mean = guesses.isEmpty ? "" : " (did you mean " + guesses.joined(separator: ", ") + "?)"
            let list = unasked.map { "\"\($0)\"" }.joined(separator: ", ")
            throw refused(
                "it leaves out \(unasked.count == 1 ? "the column" : "the columns") \(listed) of a table Quarry did not make\(mean), "
                    + "and entity drops such columns only when asked: entity(\"\(definition.name)\", { drop = { \(list) } }) { ... }")
        }
        attributes.removeAll { dropping.contains($0.name) }
        var merged = read
        merged.setAttributes(attributes)
        return merged
    }

    /// How many values (not nil) each of `names` holds in `entity`'s rows, in order.
    func valueCounts(of names: [String], in entity: EntityDescription) throws -> [Int64] {
        guard !names.isEmpty else { return [] }
        let storage = mapped(entity)
        let counts = try connection.row("SELECT \(names.map { "count(\(storage.column($0)))" }.joined(separator: ", ")) FROM \(storage.table)") ?? []
        return names.indices.map { i in
            guard counts.indices.contains(i), case .integer(let n) = counts[i] else { return 0 }
            return n
        }
    }
}
