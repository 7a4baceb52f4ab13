import QuarryModel

/// Rows loaded together (one batch of fetched results, or the members of one
/// relationship across such a batch): the first read of a relationship of one of them
/// loads it for all of them in one query, as Core Data's batch faulting does, rather
/// than one query per object. Each object holds its group; the group holds only keys.
public final class LoadGroup {
    let entity: String
    let keys: [Int64]

    init(entity: String, keys: [Int64]) {
        self.entity = entity
        self.keys = keys
    }

    /// Makes `objects` (all of one entity) one group.
    public static func adopt(_ objects: [ManagedObject]) {
        guard let first = objects.first else { return }
        let group = LoadGroup(entity: first.entity.name, keys: objects.compactMap(\.primaryKey))
        for object in objects { object.loadGroup = group }
    }
}

/// Related rows read ahead (prefetching, batch loading): each object's saved to-many
/// members by key, and the rows themselves. Saves, rollbacks, batch and outside changes
/// move the context's generation, which drops them; so does growing past `capacity`.
struct RelatedRows {
    struct MemberKey: Hashable {
        let entity: String
        let primaryKey: Int64
        let relationship: String
    }
    struct RowKey: Hashable {
        let entity: String
        let primaryKey: Int64
    }
    /// A value of a destination column that a relationship matches by value (`relate`).
    struct ValueKey: Hashable {
        let entity: String
        let column: String
        let value: StoredValue
    }
    /// A value as SQLite's `=` tells values apart: text by its bytes, where Swift's `==`
    /// on strings would equate canonically equivalent ones ("é" and "e\u{301}").
    enum StoredValue: Hashable {
        case text([UInt8])
        case other(Value)
        init(_ value: Value) {
            if let bytes = value.bytesOfText { self = .text(bytes) } else { self = .other(value) }
        }
    }
    var generation = -1
    var members: [MemberKey: [Int64]] = [:]
    /// Rows in storage form (`Value.storedForm`), as objects keep them.
    package var rows: [RowKey: [Value]] = [:]
    /// The group of each row read ahead: the members of one relationship across a group.
    var groups: [RowKey: LoadGroup] = [:]
    /// For links matched by value: the destination row each value leads to (the one with
    /// the smallest key), nil when none does.
    var byValue: [ValueKey: Int64?] = [:]
    /// Rows a link names that a read ahead found missing (a key no row has): asked for
    /// again one at a time, never by reading the whole group ahead again (which, for each
    /// object whose link dangles, read every row of its group once more).
    var missing: Set<RowKey> = []
    static let capacity = 200_000
}

extension ObjectContext {
    private func currentRelatedRows() {
        if relatedRows.generation != generation || relatedRows.rows.count > RelatedRows.capacity {
            relatedRows = RelatedRows(generation: generation)
        }
    }

    /// Loads relationship `name` of every object in `objects` (all of one entity) with one
    /// query per 500 objects: to-one targets by key, to-many members with their rows.
    public func prefetch(_ name: String, for objects: [ManagedObject]) throws {
        guard let first = objects.first else { return }
        try prefetch(name, of: first.entity.name, keys: objects.compactMap(\.primaryKey))
    }

    private func prefetch(_ name: String, of entityName: String, keys: [Int64]) throws {
        currentRelatedRows()
        let owner = try entity(named: entityName)
        guard let relationship = owner.relationship(named: name), let storage = storage(of: relationship, in: entityName) else {
            throw owner.unknownKey(name)
        }
        let destination = try entity(named: relationship.destination)
        let table = mapped(destination).table
        let key = mapped(destination).key
        switch storage {
        case .foreignKey(let column, let targetKey?):
            try prefetchByValue(column: column, of: owner, keys: keys, destination, targetKey)
        case .foreignKey(let column, nil):
            guard let index = owner.rowIndex[name] else { return }
            // Owners whose key Quarry holds (objects, rows read ahead) name their targets;
            // the others (rows a loop reads as cells, not objects) are joined in SQL.
            var unheld: [Int64] = []
            let targets = Set(
                keys.compactMap { ownerKey -> Int64? in
                    let value =
                        registeredObject(entity: entityName, primaryKey: ownerKey)?.committedValue(name)
                        ?? relatedRows.rows[.init(entity: entityName, primaryKey: ownerKey)].map { $0[index] }
                    guard let value else {
                        unheld.append(ownerKey)
                        return nil
                    }
                    guard case .integer(let k) = value else { return nil }
                    let known =
                        registeredObject(entity: destination.name, primaryKey: k) != nil
                        || relatedRows.rows[.init(entity: destination.name, primaryKey: k)] != nil
                    return known ? nil : k
                }
            ).sorted()
            var loaded: [Int64] = []
            var found: Set<Int64> = []
            func keep(_ row: [Value]) throws {
                let primaryKey = try row.storedInteger(at: 0, table: destination.name, column: mapped(destination).keyColumn)
                found.insert(primaryKey)
                let rowKey = RelatedRows.RowKey(entity: destination.name, primaryKey: primaryKey)
                guard relatedRows.rows[rowKey] == nil, registeredObject(entity: destination.name, primaryKey: primaryKey) == nil else { return }
                relatedRows.rows[rowKey] = row
                loaded.append(primaryKey)
            }
            try readInChunks(targets, "SELECT \(mapped(destination).selection(of: destination)) FROM \(table) WHERE \(key) IN") { row, _ in
                try keep(row)
            }
            // Every owner's row, with the key it names last: one naming no row (NULL
            // columns on the left) marks that key missing.
            var named: [Int64] = targets
            try readInChunks(
                unheld,
                "SELECT \(mapped(destination).selection(of: destination, qualifier: "d")), \"o\".\(quoteIdentifier(column)) FROM \(mapping.storage(of: entityName).table) AS \"o\" LEFT JOIN \(table) AS \"d\" "
                    + "ON \"d\".\(key) = \"o\".\(quoteIdentifier(column)) WHERE \"o\".\(mapped(owner).key) IN"
            ) { row, width in
                guard case .integer(let target) = row[width - 1] else { return }
                named.append(target)
                if !row[0].isNull { try keep(Array(row[..<(width - 1)])) }
            }
            for target in named where !found.contains(target) && registeredObject(entity: destination.name, primaryKey: target) == nil {
                relatedRows.missing.insert(.init(entity: destination.name, primaryKey: target))
            }
            let group = LoadGroup(entity: destination.name, keys: loaded)
            for primaryKey in loaded { relatedRows.groups[.init(entity: destination.name, primaryKey: primaryKey)] = group }
        case .inverseForeignKey(_, let column, let ownerKey, _):
            // Keyed by the owner's primary key only; links through another column are read
            // one object at a time.
            guard ownerKey == nil else { return }
            // A key column of another program's file that holds text (`'5'`, as sqlite3's
            // .import writes a column declared without a type) names its owner as SQLite's
            // join compares them, the text read as the number; a bound key would match none.
            if mapped(destination).isForeign, destination.attribute(named: column)?.type == .string {
                let owners = mapping.storage(of: entityName)
                try loadMembers(
                    keys, of: entityName, name, destination,
                    "SELECT \(mapped(destination).selection(of: destination, qualifier: "d")), \"o\".\(owners.key) FROM \(table) AS \"d\" "
                        + "JOIN \(owners.table) AS \"o\" ON \"d\".\(quoteIdentifier(column)) = \"o\".\(owners.key) WHERE \"o\".\(owners.key) IN",
                    order: " ORDER BY \"d\".\(key)")
                return
            }
            try loadMembers(
                keys, of: entityName, name, destination,
                "SELECT \(mapped(destination).selection(of: destination)), \(quoteIdentifier(column)) FROM \(table) WHERE \(quoteIdentifier(column)) IN",
                order: " ORDER BY \(key)")
        case .compositeKey, .inverseCompositeKey:
            // Links of several columns are read one object at a time.
            return
        case .linkTable(let link, let sourceColumn, let targetColumn):
            // A join table's position orders its owner's members (a member there twice
            // comes first where it first stands; the relationship lists it once).
            let positioned = mapping.storage(of: entityName).orderedLinks[name].map { $0.link == link && $0.ownerColumn == sourceColumn } == true
            try loadMembers(
                keys, of: entityName, name, destination,
                "SELECT \(mapped(destination).selection(of: destination, qualifier: "d")), \"l\".\(sourceColumn) FROM \(table) AS \"d\" JOIN \(quoteIdentifier(link)) AS \"l\" ON \"l\".\(targetColumn) = \"d\".\(key) WHERE \"l\".\(sourceColumn) IN",
                order: positioned ? " ORDER BY \"l\".position, \"d\".\(key)" : " ORDER BY \"d\".\(key)")
        }
    }

    /// Targets of a link matched by value (`relate`): every owner's row joined to the
    /// destination rows its column matches, as the predicates' JOIN matches them (the
    /// owner column's type conversions included), one query per 500 owners; each value
    /// leads to the matching row with the smallest key.
    private func prefetchByValue(column: String, of owner: EntityDescription, keys: [Int64], _ destination: EntityDescription, _ targetKey: String)
        throws
    {
        guard let index = owner.rowIndex[column] else { return }
        func known(_ ownerKey: Int64) -> Value? {
            registeredObject(entity: owner.name, primaryKey: ownerKey)?.committedValue(column)
                ?? relatedRows.rows[.init(entity: owner.name, primaryKey: ownerKey)].map { $0[index] }
        }
        func valueKey(_ value: Value) -> RelatedRows.ValueKey { .init(entity: destination.name, column: targetKey, value: .init(value)) }
        let wanted = keys.filter { ownerKey in
            guard let value = known(ownerKey) else { return true }
            return !value.isNull && relatedRows.byValue[valueKey(value)] == nil
        }
        guard !wanted.isEmpty else { return }
        var loaded: [Int64] = []
        let select =
            "SELECT \(mapped(destination).selection(of: destination, qualifier: "d")), \"o\".\(quoteIdentifier(column)) FROM \(mapped(owner).table) AS \"o\" "
            + "LEFT JOIN \(mapped(destination).table) AS \"d\" ON \"d\".\(quoteIdentifier(targetKey)) = \"o\".\(quoteIdentifier(column)) "
            + "WHERE \"o\".\(mapped(owner).key) IN"
        // Every owner's row comes back with its value last, so a value that leads to no row
        // is known as such (an inner join left it out, and each object whose value leads
        // nowhere read its whole group ahead again).
        var leadingNowhere: [RelatedRows.ValueKey] = []
        try readInChunks(wanted, select, order: " ORDER BY \"d\".\(mapped(destination).key)") { row, width in
            let value = row[width - 1]
            guard !value.isNull else { return }
            let key = valueKey(value)
            guard let primaryKey = try row.storedIntegerIfPresent(at: 0, table: destination.name, column: mapped(destination).keyColumn) else {
                leadingNowhere.append(key)
                return
            }
            guard relatedRows.byValue[key] == nil else { return }
            relatedRows.byValue[key] = .some(primaryKey)
            relatedRows.rows[.init(entity: destination.name, primaryKey: primaryKey)] = row
            loaded.append(primaryKey)
        }
        for key in leadingNowhere where relatedRows.byValue[key] == nil { relatedRows.byValue[key] = .some(nil) }
        for ownerKey in wanted {
            guard let value = known(ownerKey), !value.isNull, relatedRows.byValue[valueKey(value)] == nil else { continue }
            relatedRows.byValue[valueKey(value)] = .some(nil)
        }
        let group = LoadGroup(entity: destination.name, keys: loaded)
        for primaryKey in loaded { relatedRows.groups[.init(entity: destination.name, primaryKey: primaryKey)] = group }
    }

    /// The target of a link matched by value: read ahead for the object's load group when
    /// it has one, else on its own.
    func valueMatchedTarget(_ name: String, value: Value, of object: ManagedObject, _ destination: EntityDescription, _ targetKey: String) throws
        -> ManagedObject?
    {
        currentRelatedRows()
        let valueKey = RelatedRows.ValueKey(entity: destination.name, column: targetKey, value: .init(value))
        if relatedRows.byValue[valueKey] == nil {
            let ownKey = object.primaryKey
            let owners = ownKey.map { peers(of: object, $0) } ?? []
            let owner = currentEntity(of: object)
            if !owners.isEmpty, let relationship = owner.relationship(named: name),
                case .foreignKey(let column, _)? = storage(of: relationship, in: owner.name)
            {
                try prefetchByValue(column: column, of: owner, keys: owners, destination, targetKey)
            }
        }
        if let found = relatedRows.byValue[valueKey] {
            guard let primaryKey = found else { return nil }
            return try objects(of: destination, keys: [primaryKey]).first
        }
        // Not read ahead (an unsaved object): one query, comparing as the join does.
        let owner = currentEntity(of: object)
        let column = owner.relationship(named: name)?.column
        let ownAffinity = column.flatMap { owner.attribute(named: $0) }.flatMap { ColumnAffinity(of: $0, in: mapped(owner)) }
        let targetAffinity = destination.attribute(named: targetKey).flatMap { ColumnAffinity(of: $0, in: mapped(destination)) }
        let placeholder = ownAffinity?.placeholder(against: targetAffinity, for: value) ?? "?"
        let sql =
            "SELECT \(mapped(destination).selection(of: destination)) FROM \(mapped(destination).table) WHERE \(quoteIdentifier(targetKey)) = \(placeholder) ORDER BY \(mapped(destination).key) LIMIT 1"
        guard let row = try connection.row(sql, arguments: [value]) else { return nil }
        return try self.object(for: destination, values: row)
    }

    /// Runs `select (?, ?, ...)` for the owners 500 at a time; the last column of each row
    /// names its owner.
    private func loadMembers(
        _ owners: [Int64], of entityName: String, _ name: String, _ destination: EntityDescription,
        _ select: String, order: String
    ) throws {
        let owners = owners.filter { relatedRows.members[.init(entity: entityName, primaryKey: $0, relationship: name)] == nil }
        guard !owners.isEmpty else { return }
        var members: [Int64: [Int64]] = [:]
        var loaded: [RelatedRows.RowKey] = []
        // A WITHOUT ROWID table's INTEGER key may hold text: such a row is no object, and
        // no member (as the predicates' SQL counts members).
        let objectsOnly = mapped(destination).keyMayHoldOthers
        try readInChunks(owners, select, order: order) { row, width in
            if objectsOnly { guard case .integer = row[0] else { return } }
            let memberKey = try row.storedInteger(at: 0, table: destination.name, column: mapped(destination).keyColumn)
            guard let owner = try row.storedIntegerIfPresent(at: width - 1, table: entityName, column: name) else { return }
            members[owner, default: []].append(memberKey)
            let rowKey = RelatedRows.RowKey(entity: destination.name, primaryKey: memberKey)
            relatedRows.rows[rowKey] = row
            loaded.append(rowKey)
        }
        let group = LoadGroup(entity: destination.name, keys: loaded.map(\.primaryKey))
        for rowKey in loaded { relatedRows.groups[rowKey] = group }
        for owner in owners {
            relatedRows.members[.init(entity: entityName, primaryKey: owner, relationship: name)] = members[owner] ?? []
        }
    }

    /// Rows are read whole first, then handed to `body` (which may read the store), in
    /// storage form (`Value.storedForm`).
    private func readInChunks(_ keys: [Int64], _ select: String, order: String = "", _ body: ([Value], Int) throws -> Void) throws {
        var start = 0
        while start < keys.count {
            let chunk = Array(keys[start..<min(keys.count, start + 500)])
            start += chunk.count
            let sql = select + " (" + Array(repeating: "?", count: chunk.count).joined(separator: ",") + ")" + order
            for row in try connection.rows(sql, arguments: chunk.map(Value.integer)) {
                try body(row.map(\.storedForm), row.count)
            }
        }
    }

    /// The saved members of a to-many relationship kept by the destination's key column
    /// or a link table: from rows read ahead, loading them for the object's whole load
    /// group on first use.
    func savedMembers(_ name: String, of object: ManagedObject, _ destination: EntityDescription) throws -> [ManagedObject] {
        guard let key = object.primaryKey else { return [] }
        currentRelatedRows()
        let memberKey = RelatedRows.MemberKey(entity: object.entity.name, primaryKey: key, relationship: name)
        if relatedRows.members[memberKey] == nil { try prefetch(name, of: object.entity.name, keys: peers(of: object, key)) }
        return try objects(of: destination, keys: relatedRows.members[memberKey] ?? [])
    }

    /// The to-one target with this key: registered, read ahead, or read now (for the
    /// object's whole load group).
    func toOneTarget(_ name: String, key: Int64, of object: ManagedObject, _ destination: String) throws -> ManagedObject? {
        if let registered = registeredObject(entity: destination, primaryKey: key) { return registered }
        currentRelatedRows()
        let rowKey = RelatedRows.RowKey(entity: destination, primaryKey: key)
        if relatedRows.rows[rowKey] == nil, !relatedRows.missing.contains(rowKey), let ownKey = object.primaryKey, object.loadGroup != nil {
            try prefetch(name, of: object.entity.name, keys: peers(of: object, ownKey))
            // Not read ahead with its group: asked for alone from now on.
            if relatedRows.rows[rowKey] == nil { relatedRows.missing.insert(rowKey) }
        }
        if relatedRows.rows[.init(entity: destination, primaryKey: key)] != nil {
            return try objects(of: try entity(named: destination), keys: [key]).first
        }
        return try self.object(entityName: destination, primaryKey: key)
    }

    /// The keys loaded with `object`'s: its load group, or itself alone.
    private func peers(of object: ManagedObject, _ key: Int64) -> [Int64] {
        guard let group = object.loadGroup, group.entity == object.entity.name, group.keys.contains(key) else { return [key] }
        return group.keys
    }

    /// Objects by key, in the order given: registered ones, then rows read ahead, then
    /// one query for the rest.
    private func objects(of entity: EntityDescription, keys: [Int64]) throws -> [ManagedObject] {
        // One object already made (a link followed again): no dictionary, and no query
        // written (its SQL was a quarter of following a to-one in a loop).
        if keys.count == 1, let object = registeredObject(entity: entity.name, primaryKey: keys[0]) { return [object] }
        var found: [Int64: ManagedObject] = [:]
        var missing: [Int64] = []
        for key in keys {
            if let object = registeredObject(entity: entity.name, primaryKey: key) {
                found[key] = object
            } else if let row = relatedRows.rows[.init(entity: entity.name, primaryKey: key)] {
                let object = try self.object(for: entity, storedRow: row)
                if object.loadGroup == nil { object.loadGroup = relatedRows.groups[.init(entity: entity.name, primaryKey: key)] }
                found[key] = object
            } else {
                missing.append(key)
            }
        }
        guard !missing.isEmpty else { return keys.compactMap { found[$0] } }
        try readInChunks(missing, "SELECT \(mapped(entity).selection(of: entity)) FROM \(mapped(entity).table) WHERE \(mapped(entity).key) IN") {
            row, _ in
            let object = try self.object(for: entity, storedRow: row)
            if let key = object.primaryKey { found[key] = object }
        }
        return keys.compactMap { found[$0] }
    }
}
