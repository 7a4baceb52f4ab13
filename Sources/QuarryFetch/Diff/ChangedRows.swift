import QuarryEngine
import QuarryModel
import QuarryStore

/// The rows of an entity two SQLite files differ in, found by SQL: the new store's file
/// attached to the old store's connection, read-only (`StoreConnection.withAttached`), and
/// two queries in key order, a chunk at a time: the old rows with no identical row in the
/// new file, each beside its partner (none when its key is gone), and the new rows whose
/// key the old file lacks (only when the two tables' counts say there are some). So Swift
/// sees the changed rows alone, not every row of both.
///
/// SQL only narrows: the rows it returns are compared in Swift as every row is on the
/// general path (`StoreDiff.compareRows`), so the answer is the same whenever every row
/// SQL leaves out is one Swift finds equal. It does: each compared value is the same
/// expression the general path reads, and two are left out only when `IS` finds them the
/// same with no affinity (`+x`) and text compared byte for byte (`COLLATE BINARY`), that
/// is the same storage class and value (or an integer and a real of the same value), which
/// `DiffValues.equal` finds equal too. It is used only where nothing else depends on
/// reading every row: objects known by their row key (an integer no two rows share, never
/// NULL) in a table of both files, and no ordered relationship (whose moves the merge
/// looks for at every object both stores hold).
struct ChangedRows {
    /// The attached file's schema name.
    static let schema = "quarry_diff_new"

    /// Calls `body` with each pair of rows that may differ: the old row and the new one (nil
    /// for an object only in `old`) in key order, then the new rows only in `new` (the old
    /// row nil) in key order; each row its key, then `attributes`, then `toOnes`' key
    /// columns, as the general path reads them.
    /// False, `body` not called, when the two stores cannot be compared this way.
    static func pairs(
        _ old: ObjectContext, _ a: EntityDescription, _ new: ObjectContext, _ b: EntityDescription,
        keys: ([String], [String]), attributes: [String], toOnes: [RelationshipDescription],
        _ body: ([Value]?, [Value]?) throws -> Void
    ) throws -> Bool {
        let storageA = old.mapped(a)
        let storageB = new.mapped(b)
        guard storageA.schema == nil, storageB.schema == nil, isRowKey(keys.0, storageA), isRowKey(keys.1, storageB) else { return false }
        let done = try old.connection.withAttached(new.connection, as: schema) { () throws -> Bool in
            guard try tablesInBoth(old, storageA.relation, storageB.relation) else { return false }
            try read(old, (a, storageA, keys.0.first), (b, storageB, keys.1.first), attributes: attributes, toOnes: toOnes, body)
            return true
        }
        return done ?? false
    }

    /// Whether the objects are known by their row's integer key (`keyAttributes`: none, or
    /// the attribute that is that key, another program's `id INTEGER PRIMARY KEY`): a
    /// rowid, which no two rows share and none leaves NULL, and the joins find by it.
    private static func isRowKey(_ keyAttributes: [String], _ storage: EntityStorage) -> Bool {
        guard !storage.needsIntegerKeyCheck, storage.numberedRows == nil, !storage.keyIsPlace else { return false }
        return keyAttributes.isEmpty || (keyAttributes == [storage.keyColumn] && storage.primaryKey == [storage.keyColumn])
    }

    /// Whether `oldRelation` is a table of the old file and `newRelation` one of the new,
    /// and neither name is one of the session's own (a TEMP view, which would come first).
    private static func tablesInBoth(_ context: ObjectContext, _ oldRelation: String, _ newRelation: String) throws -> Bool {
        try context.connection.holdsTables(oldRelation, newRelation, attachedAs: schema)
    }

    private static func read(
        _ context: ObjectContext, _ a: (EntityDescription, EntityStorage, String?), _ b: (EntityDescription, EntityStorage, String?),
        attributes: [String], toOnes: [RelationshipDescription], _ body: ([Value]?, [Value]?) throws -> Void
    ) throws {
        // Each side's key as the general path reads it (the attribute's expression, when
        // the key is one), then its compared values.
        func columns(_ side: (EntityDescription, EntityStorage, String?), alias: String) -> [String] {
            let (entity, storage, keyAttribute) = side
            let qualifier = quoteIdentifier(alias) + "."
            return [keyAttribute.map { DiffIdentity.expression(storage, $0, of: entity, qualifier: alias) } ?? qualifier + storage.key]
                + attributes.map { DiffIdentity.expression(storage, $0, of: entity, qualifier: alias) }
                + toOnes.map { r in qualifier + storage.column(entity.relationship(named: r.name)?.keyColumn ?? r.keyColumn) }
        }
        let o = columns(a, alias: "o")
        let n = columns(b, alias: "n")
        let oldTable = "main." + quoteIdentifier(a.1.relation) + " AS \"o\""
        let newTable = quoteIdentifier(schema) + "." + quoteIdentifier(b.1.relation) + " AS \"n\""
        // Rows are joined by their keys' columns, as they are (an index finds them).
        let (oldKey, newKey) = ("\"o\"." + a.1.key, "\"n\"." + b.1.key)
        let differs = zip(o.dropFirst(), n.dropFirst()).map { "+(\($0)) IS NOT +(\($1)) COLLATE BINARY" }
        // Both read in the order of the key's value, as the general path reads them.
        var gone = KeyOrderedRows(
            context: context, entity: a.0.name,
            from: "\(oldTable) LEFT JOIN \(newTable) ON \(newKey) = \(oldKey) WHERE "
                + (["\(newKey) IS NULL"] + differs).joined(separator: " OR "),
            columns: o + n, keyCount: 1, textKeys: [false], fix: DiffIdentity.fix(for: a.0))
        let width = o.count
        var missing = 0
        while let row = try gone.next() {
            let partner = Array(row[width...])
            if partner.first == .null { missing += 1 }
            try body(Array(row[0..<width]), partner.first == .null ? nil : partner)
        }
        // The new rows whose key the old file lacks: none when the new file holds no more
        // rows than the old rows it shares (counting is cheaper than looking each row up).
        let counts = try context.connection.rows(
            "SELECT (SELECT count(*) FROM main.\(quoteIdentifier(a.1.relation))), "
                + "(SELECT count(*) FROM \(quoteIdentifier(schema)).\(quoteIdentifier(b.1.relation)))")
        if case .integer(let inOld)? = counts.first?[0], case .integer(let inNew)? = counts.first?[1], inNew == inOld - Int64(missing) {
            return
        }
        var added = KeyOrderedRows(
            context: context, entity: b.0.name,
            from: "\(newTable) WHERE NOT EXISTS (SELECT 1 FROM \(oldTable) WHERE \(oldKey) = \(newKey))",
            columns: n, keyCount: 1, textKeys: [false], fix: DiffIdentity.fix(for: b.0))
        while let row = try added.next() { try body(nil, row) }
    }
}
