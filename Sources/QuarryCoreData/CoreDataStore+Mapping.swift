import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// The model's entities laid over the store's tables: which table and column holds what,
/// and the view SQL that shows it under the model's names.
extension CoreDataStore {
    func map(_ model: CoreDataModel, numbers: CoreDataNumbers, db: Database) throws {
        var columnsByTable: [String: [String]] = [:]
        // Tables whose Z_PK is declared as SQLite's rowid (below): their keys are integers.
        var rowidKeyed: Set<String> = []
        // By name folded as SQLite folds it (ASCII only: `ZPERſON` is not `ZPERSON`), and
        // read as stored values: a schema written by hand may hold a blob (GRDB's String
        // conversion would trap), and such a table is simply not known to be rowid-keyed.
        let tableSQL = Dictionary(
            try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table'").compactMap { row -> (String, String)? in
                guard case .string(let name) = (row[0] as DatabaseValue).storage, case .string(let sql) = (row[1] as DatabaseValue).storage else {
                    return nil
                }
                return (Self.asciiUppercased(name), sql)
            }, uniquingKeysWith: { first, _ in first })
        func columns(_ table: String) throws -> [String] {
            if let known = columnsByTable[table] { return known }
            // Stepped directly: GRDB's rows were a third of this for Photos.app's 2,000 columns.
            var names: [String] = []
            var keys: [(name: String, type: String)] = []
            try db.withStatement("PRAGMA table_info(\(quoteIdentifier(table)))", cached: false) { statement in
                while try statement.step() {
                    guard statement.type(1) == .text else { throw StoreError.database(message: "\(table): a column with no name") }
                    let name = String(decoding: statement.text(1), as: UTF8.self)
                    names.append(name)
                    if statement.int64(5) != 0 { keys.append((name, String(decoding: statement.text(2), as: UTF8.self))) }
                }
            }
            if keys.count == 1, keys[0].name.uppercased() == "Z_PK", keys[0].type.uppercased() == "INTEGER",
                let sql = tableSQL[Self.asciiUppercased(table)], Self.declaresRowidAlias(sql)
            {
                rowidKeyed.insert(table)
            }
            columnsByTable[table] = names
            return names
        }
        // A table's columns whose second character is a digit or `_` (`Z_PK`, `Z3OWNER`):
        // the only ones that can keep a to-one's target entity (below), so each to-one
        // looks through these few and not the table's hundreds of columns.
        // Each with its upper-cased name, made once (not once for each to-one looking).
        var numberedByTable: [String: [(column: String, upper: String)]] = [:]
        func numberedColumns(_ table: String, _ available: [String]) -> [(column: String, upper: String)] {
            if let known = numberedByTable[table] { return known }
            let found = available.compactMap { column -> (column: String, upper: String)? in
                // A printable ASCII name's second byte (its second character: only CR LF
                // is two ASCII bytes in one) decides without upper-casing it (most columns).
                let utf8 = column.utf8
                if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 }) {
                    guard utf8.count > 1 else { return nil }
                    let second = utf8[utf8.index(after: utf8.startIndex)]
                    guard (0x30...0x39).contains(second) || second == 0x5F else { return nil }
                }
                let u = column.uppercased()
                guard let second = u.dropFirst().first, second.isNumber || second == "_" else { return nil }
                return (column, u)
            }
            numberedByTable[table] = found
            return found
        }
        // A table's columns by their upper-cased names, made once per table (a hierarchy's
        // entities share their root's table).
        var upperByTable: [String: [String: String]] = [:]
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'").map { $0.uppercased() })
        let lookups = ModelLookups(model)
        let propertyColumns = PropertyColumns(lookups, numbers: numbers)
        // The entities the store numbers, by the root of their hierarchy in the model.
        var numberedByRoot: [String: Set<String>] = [:]
        for name in numbers.codes.keys {
            if let root = lookups.rootName(of: name) { numberedByRoot[root, default: []].insert(name) }
        }

        for modelEntity in model.entities {
            let name = modelEntity.name
            // The view is named after the entity and shadows any table of that name, in
            // queries and in the triggers' bodies (which may not name a schema): an entity
            // named like one of the store's tables would send writes to its own view.
            if tables.contains(name.uppercased()) || name.lowercased().hasPrefix("sqlite_") || name.lowercased().hasPrefix("quarry_") {
                notes.append("entity \(name): its name is also the name of a table in the store; left out")
                continue
            }
            guard let code = numbers.codes[name] else {
                notes.append("entity \(name) of the model is not in the store's Z_PRIMARYKEY: left out")
                continue
            }
            let root = lookups.rootName(of: name) ?? name
            let table = "Z" + root.uppercased()
            guard tables.contains(table) else {
                notes.append("entity \(name): no table \(table) in the store: left out")
                continue
            }
            let available = try columns(table)
            let upper = upperByTable[table] ?? Dictionary(available.map { ($0.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
            upperByTable[table] = upper
            let ancestors = lookups.ancestors(of: name)
            let descendants = lookups.descendants(of: name)
            let chain = [name] + ancestors.map(\.name)
            let family = [name] + descendants.map(\.name)
            let descendantCodes = descendants.compactMap { numbers.codes[$0.name] }
            let inheritedAttributes = lookups.allAttributes(of: name)
            let inheritedRelationships = lookups.allRelationships(of: name)
            // What the entity declares or inherits (`declared` below), by name.
            let ownAttributeNames = Set(inheritedAttributes.map(\.name))
            let ownRelationshipNames = Set(inheritedRelationships.map(\.name))

            // Attributes: the entity's own and inherited ones, then its sub-entities' (nil
            // on rows that lack them), so predicates over a parent may name them.
            var attributes: [AttributeDescription] = []
            // The view's columns, appended to one buffer of bytes (Photos.app's views read
            // 2,000 columns: a string and an array entry for each, then joined, cost more,
            // and an append to a String 370 instructions, where its bytes take 206).
            var selections: [UInt8] = []
            func append(_ text: String) { selections.append(contentsOf: text.utf8) }
            func select(_ read: String, as key: String) {
                append(", ")
                append(read)
                append(" AS ")
                append(quoteIdentifier(key))
            }
            var seen: Set<String> = []
            var writes: [ColumnWrite] = []
            // `attributeColumns[name]`, gathered apart and stored once (not a nested
            // dictionary write, hashing the entity's name, per attribute).
            var ownColumns: [String: String] = [:]
            ownColumns.reserveCapacity(inheritedAttributes.count)
            var subentityKeys: Set<String> = []
            let candidates = inheritedAttributes + descendants.flatMap(\.attributes)
            seen.reserveCapacity(2 * candidates.count + 16)
            selections.reserveCapacity(64 * candidates.count + 256)
            append(quoteIdentifier("Z_PK") + " AS " + quoteIdentifier(EntityStorage.quarryKeyColumn))
            append(", " + quoteIdentifier("Z_ENT") + " AS " + quoteIdentifier(EntityStorage.entityColumn))
            // A composite's elements are attributes keyed by their paths (`author.person`).
            // Made in one array (a plain attribute is its one piece): an array of pieces for
            // each of Photos.app's 1,250 attributes, then flattened, cost 3.8M instructions.
            var pieces: [(property: CoreDataAttribute, piece: CoreDataAttribute.StoredElement)] = []
            pieces.reserveCapacity(candidates.count)
            for property in candidates where !property.isTransient && seen.insert(property.name.lowercased()).inserted {
                if property.type != .composite {
                    pieces.append((property, CoreDataAttribute.StoredElement(key: property.name, attribute: property, columnName: property.name)))
                } else {
                    for piece in property.storedElements { pieces.append((property, piece)) }
                }
            }
            for (property, piece) in pieces {
                let attribute = piece.attribute
                let key = piece.key
                // A composite's element path that is also another property's name (a model
                // with an attribute named `author.person` beside `author`) is read once.
                if key != property.name, !seen.insert(key.lowercased()).inserted {
                    notes.append("\(name).\(key): named like another property; left out")
                    continue
                }
                guard let type = attribute.type.quarryType else {
                    notes.append("\(name).\(key): type \(attribute.type.rawValue) is not read")
                    continue
                }
                // Sibling sub-entities that each declare it keep it in columns of their own.
                let (placed, plain) = propertyColumns.placed(key, for: name, chain: chain, lookups: lookups, numbers: numbers, upper: upper)
                guard let column = placed.first?.column ?? upper[plain] else {
                    notes.append("\(name).\(key): no column \(plain) in \(table)")
                    continue
                }
                let byEntity = placed.count > 1 ? placed : []
                if let own = byEntity.isEmpty ? column : byEntity.first(where: { $0.codes.contains(code) })?.column {
                    ownColumns[key] = own
                }
                let declared = ownAttributeNames.contains(property.name)
                if !declared { subentityKeys.insert(key) }
                // A new object starts from the model's default, as Core Data's does.
                attributes.append(
                    AttributeDescription(
                        name: key, type: type,
                        isOptional: attribute.isOptional || !declared,
                        defaultValue: declared ? attribute.defaultValue.flatMap { CoreDataModel.quarryDefault($0, type: type) } : nil))
                let external = type == .binary && attribute.allowsExternalBinaryDataStorage
                if external { hasExternalAttributes = true }
                let label = external ? name + "." + key : nil
                let read =
                    byEntity.isEmpty
                    ? Self.reading(column, as: type, external: label)
                    : Self.byEntity(byEntity, reading: { Self.reading($0, as: type, external: label) })
                select(read, as: key)
                // A derived attribute is the store's to compute (its triggers): never written.
                if attribute.isDerived {
                    derivedAttributes[name, default: [:]][key] = attribute.derivationExpression ?? ""
                } else {
                    writes.append(ColumnWrite(key: key, column: column, type: type, byEntity: byEntity, external: external))
                    if name == root { namedColumns.append((table, column, name, key)) }
                }
            }

            if !ownColumns.isEmpty { attributeColumns[name] = attributeColumns[name]?.merging(ownColumns) { _, new in new } ?? ownColumns }

            // To-one relationships: a column of the destination's Z_PK.
            var relationships: [RelationshipDescription] = []
            let relationshipCandidates = inheritedRelationships + descendants.flatMap(\.relationships)
            for r in relationshipCandidates where !r.isTransient && seen.insert(r.name.lowercased()).inserted {
                guard model.entity(named: r.destination) != nil, numbers.codes[r.destination] != nil else {
                    notes.append("\(name).\(r.name): destination \(r.destination) is not in the store")
                    continue
                }
                if !r.isToMany {
                    // Sibling sub-entities that each declare it keep it in columns of their
                    // own (`ZSETTINGS`, `ZSETTINGS1`): a row read through their parent reads
                    // the column of its own entity's declaration.
                    let placed = propertyColumns.placed(r.name, for: name, chain: chain, lookups: lookups, numbers: numbers, upper: upper).placed
                    guard let column = placed.first?.column ?? propertyColumns.column(of: r.name, declaredBy: name, upper: upper) else {
                        notes.append("\(name).\(r.name): no column Z\(r.name.uppercased()) in \(table)")
                        continue
                    }
                    let byEntity = placed.count > 1 ? placed : []
                    let read = byEntity.isEmpty ? quoteIdentifier(column) : Self.byEntity(byEntity, reading: { quoteIdentifier($0) })
                    select(read, as: r.name)
                    // A destination with sub-entities: a second column keeps the target's Z_ENT.
                    let (upperColumn, upperName) = (column.uppercased(), r.name.uppercased())
                    let typeColumn = numberedColumns(table, available).first { candidate in
                        let u = candidate.upper
                        guard u != upperColumn, u.hasPrefix("Z"), u.hasSuffix(upperName) else { return false }
                        let middle = u.dropFirst().dropLast(r.name.count)
                        return !middle.isEmpty && middle.allSatisfy { $0.isNumber || $0 == "_" } && middle.contains { $0.isNumber }
                    }?.column
                    let destinationTable = "Z" + (lookups.rootName(of: r.destination) ?? r.destination).uppercased()
                    writes.append(
                        ColumnWrite(
                            key: r.name, column: column, type: .int64, entityColumn: typeColumn, destinationTable: destinationTable,
                            byEntity: byEntity))
                }
                if r.isToMany, r.isOrdered, let inverseName = r.inverse,
                    lookups.allRelationships(of: r.destination).contains(where: { $0.name == inverseName && !$0.isToMany })
                {
                    let destinationTable = "Z" + (lookups.rootName(of: r.destination) ?? r.destination).uppercased()
                    let destinationColumns = tables.contains(destinationTable) ? try columns(destinationTable) : []
                    if let keyColumn = destinationColumns.first(where: { $0.uppercased() == "Z" + inverseName.uppercased() }) {
                        noteOrdering(
                            entity: name, relationship: r.name, table: destinationTable, keyColumn: keyColumn,
                            inverse: inverseName, columns: destinationColumns)
                    }
                }
                // Sibling sub-entities' relationships of one name may lead to different
                // entities (CloudOrganization's settings are CloudOrganizationSettings,
                // LocalOrganization's LocalOrganizationSettings): over their parent it leads
                // to the nearest entity above them all, so a path through it reaches each.
                var destination = r.destination
                if !ownRelationshipNames.contains(r.name) {
                    let destinations = Set(relationshipCandidates.lazy.filter { $0.name == r.name && !$0.isTransient }.map(\.destination))
                    if destinations.count > 1 {
                        destination = Self.commonAncestor(of: destinations, lookups: lookups, numbers: numbers) ?? r.destination
                    }
                }
                var relationship = RelationshipDescription(
                    name: r.name, destination: destination, inverse: r.inverse,
                    isToMany: r.isToMany, deleteRule: DeleteRule(r.deleteRule))
                if !ownRelationshipNames.contains(r.name) {
                    subentityKeys.insert(r.name)
                } else if !r.isToMany, !r.isOptional {
                    relationship.isRequired = true
                }
                relationships.append(relationship)
            }

            var entity = EntityDescription(name: name, attributes: attributes, relationships: relationships)
            Self.applyUniqueness(model.entity(named: name)?.uniquenessConstraints ?? [], to: &entity)
            // The nearest ancestor the store numbers: a parent missing from Z_PRIMARYKEY is
            // left out (above), and its sub-entities hang from the entity above it, so a row
            // fetched through the root is still made as its own entity.
            entity.parent = ancestors.first { numbers.codes[$0.name] != nil }?.name
            entity.isAbstract = model.entity(named: name)?.isAbstract ?? false
            entity.subentityKeys = subentityKeys
            // A root whose table holds no other entity needs no filter on Z_ENT.
            let codes = ([code] + descendantCodes.filter { $0 != code }).map(String.init).joined(separator: ", ")
            let onlyFamily = root == name && numberedByRoot[root, default: []] == Set(family)
            // A row whose key is not an integer cannot be an object: left out, with a note
            // (`unkeyedRowsNote`). Needless where Z_PK is the rowid (Core Data's own tables).
            let keyed = rowidKeyed.contains(table) ? nil : "typeof(\(quoteIdentifier("Z_PK"))) = 'integer'"
            if keyed != nil, root == name, let note = try Self.unkeyedRowsNote(db, table: table, entity: name) { notes.append(note) }
            let conditions = (onlyFamily ? [] : ["\(quoteIdentifier("Z_ENT")) IN (\(codes))"]) + [keyed].compactMap { $0 }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            // A root with sub-entities reads rows of any Z_ENT: those naming no entity of
            // its family are read as the root itself, which is worth a note. Counted only
            // in a hierarchy's table (Core Data indexes its Z_ENT), not in every table at
            // every open: that read all of a big store.
            let strayTest = "(\(quoteIdentifier("Z_ENT")) IS NULL OR \(quoteIdentifier("Z_ENT")) NOT IN (\(codes)))"
            if onlyFamily, descendantCodes.contains(where: { $0 != code }),
                let strays = try Int.fetchOne(
                    db,
                    sql: "SELECT count(*) FROM main.\(quoteIdentifier(table)) WHERE "
                        + ([keyed].compactMap { $0 } + [strayTest]).joined(separator: " AND ")),
                strays > 0
            {
                notes.append(
                    "\(table): \(strays) row\(strays == 1 ? "" : "s") whose Z_ENT names no entity of \(name)'s family \(strays == 1 ? "is" : "are") read as \(name)"
                )
            }
            let selected = String(decoding: selections, as: UTF8.self)
            let rowsSQL = "main.\(quoteIdentifier(table))\(filter)"
            let sql = "CREATE TEMP VIEW \(quoteIdentifier(name)) AS SELECT \(selected) FROM \(rowsSQL)"
            let rootCode = numbers.codes[root] ?? code
            entities.append(
                Mapped(
                    entity: entity, code: code, rootCode: rootCode, descendantCodes: descendantCodes, table: table,
                    viewSQL: sql, rowsSQL: rowsSQL, writes: writes))
        }
        try mapLinkTables(lookups, numbers: numbers, tables: tables, columns: columns)
        try mapHiddenToManyColumns(lookups, numbers: numbers, columns: columns)
        shareOrderings(lookups)
    }

    /// `name` with ASCII letters upper-cased, as SQLite compares names.
    static func asciiUppercased(_ name: String) -> String {
        String(decoding: name.utf8.map { (97...122).contains($0) ? $0 - 32 : $0 }, as: UTF8.self)
    }

    /// Whether a table's `CREATE TABLE` makes its one INTEGER key column the rowid (so it
    /// holds integers only): not `WITHOUT ROWID`, and not `PRIMARY KEY DESC` (SQLite's
    /// quirk: that is an ordinary column). Read from the text conservatively: the word
    /// `DESC` or `WITHOUT` anywhere (in a name too) means no.
    static func declaresRowidAlias(_ sql: String) -> Bool {
        // Word by word over the bytes, each word's first 8 bytes upper-cased in an integer
        // (Photos' tables' SQL is 100 KB: upper-casing it and splitting it into a set, and
        // later an array per word, cost more than the rest of this check at each open).
        var text = sql
        return text.withUTF8 { bytes in
            var word: UInt64 = 0
            var length = 0
            func isRefusal() -> Bool { (length == 4 && word == descWord) || (length == 7 && word == withoutWord) }
            for byte in bytes {
                if isWordByte(byte) {
                    if length < 8 { word = word << 8 | UInt64(upperCased(byte)) }
                    length += 1
                    continue
                }
                if isRefusal() { return false }
                word = 0
                length = 0
            }
            return !isRefusal()
        }
    }

    // Byte tests as functions with their types written out: as one expression of ranges
    // and `||` inside the loop they took the type checker over two seconds, on every build.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        if byte >= 0x80 || byte == 0x5F { return true }
        return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func upperCased(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 32 : byte }

    /// `DESC` and `WITHOUT` as `declaresRowidAlias` packs a word's bytes.
    private static let descWord = packedWord("DESC"), withoutWord = packedWord("WITHOUT")
    private static func packedWord(_ word: String) -> UInt64 { word.utf8.reduce(0) { $0 << 8 | UInt64($1) } }

    /// The nearest entity the store numbers that each of `names` is or inherits from.
    static func commonAncestor(of names: Set<String>, lookups: ModelLookups, numbers: CoreDataNumbers) -> String? {
        guard let first = names.sorted().first else { return nil }
        let lines = Dictionary(names.map { n in (n, Set([n] + lookups.ancestors(of: n).map(\.name))) }, uniquingKeysWith: { a, _ in a })
        return ([first] + lookups.ancestors(of: first).map(\.name)).first { candidate in
            numbers.codes[candidate] != nil && lines.values.allSatisfy { $0.contains(candidate) }
        }
    }

    /// A property sibling sub-entities keep in columns of their own, read from the column
    /// of each row's entity (nil for a row of none of them).
    static func byEntity(_ placed: [(codes: [Int64], column: String)], reading: (String) -> String) -> String {
        "CASE "
            + placed.map { "WHEN \(quoteIdentifier("Z_ENT")) IN (\($0.codes.map(String.init).joined(separator: ", "))) THEN \(reading($0.column))" }
            .joined(separator: " ") + " END"
    }

    /// `epochOffset` as the views write it, made once (a Double's text is slow to make).
    static let epochOffsetText = "\(epochOffset)"

    /// A column read as Quarry holds the type: dates from Core Data's 2001 epoch to Unix
    /// seconds, 16-byte UUIDs as their text, external binary data as its bytes (`external`:
    /// the attribute as a refusal to read its file names it, `Entity.attribute`).
    static func reading(_ column: String, as type: AttributeType, external: String? = nil) -> String {
        let c = quoteIdentifier(column)
        if let external { return ExternalBinaryData.readingSQL(c, attribute: external, key: quoteIdentifier("Z_PK")) }
        switch type {
        case .date:
            return "(\(c) + \(epochOffsetText))"
        case .uuid:
            let h = "hex(\(c))"
            return
                "CASE WHEN typeof(\(c)) = 'blob' AND length(\(c)) = 16 THEN substr(\(h), 1, 8) || '-' || substr(\(h), 9, 4) || '-' || substr(\(h), 13, 4) || '-' || substr(\(h), 17, 4) || '-' || substr(\(h), 21, 12) ELSE \(c) END"
        default:
            return c
        }
    }

    /// Many-to-many pairs: Core Data's join table `Z_<n><NAME>` (n the number of one
    /// side's entity, NAME its relationship) with a key column per side, shown as the
    /// link view Quarry's relationship storage names (`quarry_link_<Entity>_<name>`).
    private func mapLinkTables(
        _ lookups: ModelLookups, numbers: CoreDataNumbers, tables: Set<String>,
        columns: (String) throws -> [String]
    ) throws {
        var done: Set<String> = []
        for mapped in entities {
            let entity = mapped.entity
            for r in entity.relationships where r.isToMany {
                guard let inverseName = r.inverse, let destination = self.mapped(r.destination)?.entity,
                    let inverse = destination.relationship(named: inverseName), inverse.isToMany
                else { continue }
                let mine = "\(entity.name)_\(r.name)"
                let theirs = "\(destination.name)_\(inverse.name)"
                let linkName = "quarry_link_" + min(mine, theirs)
                guard done.insert(linkName).inserted else { continue }
                // The join table is named after one side: try both, and each side's ancestors' numbers.
                let sides: [(EntityDescription, RelationshipDescription, EntityDescription, RelationshipDescription)] =
                    [(entity, r, destination, inverse), (destination, inverse, entity, r)]
                var found: (table: String, sourceColumn: String, targetColumn: String)?
                // The columns of `entity`'s keys and of `destination`'s, for ordered sides.
                var ownColumns: (mine: String, theirs: String)?
                for (a, ra, _, rb) in sides where found == nil {
                    for codeA in Self.codes(of: a.name, lookups: lookups, numbers: numbers) {
                        guard
                            let (table, keys) = try Self.joinTable(
                                "Z_\(codeA)\(ra.name.uppercased())", keyColumn: "Z_\(codeA)\(rb.name.uppercased())",
                                tables: tables, columns: columns)
                        else { continue }
                        // The column of a's key is named after b's relationship back to a.
                        let aColumn =
                            keys.first { Self.isNamed($0, "Z_\(codeA)\(rb.name.uppercased())") }
                            ?? keys.first { $0.uppercased().hasSuffix(rb.name.uppercased()) && $0.uppercased().hasPrefix("Z_\(codeA)") } ?? keys[0]
                        let bColumn = keys.first { $0 != aColumn } ?? keys[1]
                        // The link view's "source" is the side whose name sorts first.
                        let aIsSource = "\(a.name)_\(ra.name)" == min(mine, theirs)
                        found = (table, aIsSource ? aColumn : bColumn, aIsSource ? bColumn : aColumn)
                        ownColumns = a.name == entity.name && ra.name == r.name ? (aColumn, bColumn) : (bColumn, aColumn)
                        break
                    }
                }
                guard let found else {
                    notes.append("\(entity.name).\(r.name): no join table for the many-to-many pair with \(destination.name).\(inverse.name)")
                    continue
                }
                if let ownColumns {
                    let joinColumns = try columns(found.table)
                    if Self.isOrdered(r.name, of: entity.name, in: lookups) {
                        noteOrdering(
                            entity: entity.name, relationship: r.name, joinTable: found.table, ownerColumn: ownColumns.mine,
                            memberColumn: ownColumns.theirs, columns: joinColumns)
                    }
                    if Self.isOrdered(inverse.name, of: destination.name, in: lookups) {
                        noteOrdering(
                            entity: destination.name, relationship: inverse.name, joinTable: found.table, ownerColumn: ownColumns.theirs,
                            memberColumn: ownColumns.mine, columns: joinColumns)
                    }
                }
                let (link, join) = (quoteIdentifier(linkName), quoteIdentifier(found.table))
                let (source, target) = (quoteIdentifier(found.sourceColumn), quoteIdentifier(found.targetColumn))
                linkViews.append(
                    LinkView(
                        name: linkName,
                        view: "CREATE TEMP VIEW \(link) AS SELECT \(source) AS source, \(target) AS target FROM main.\(join)",
                        triggers: [
                            "CREATE TEMP TRIGGER \(quoteIdentifier(linkName + "_insert")) INSTEAD OF INSERT ON \(link) BEGIN INSERT INTO \(join) (\(source), \(target)) VALUES (NEW.source, NEW.target); END",
                            "CREATE TEMP TRIGGER \(quoteIdentifier(linkName + "_delete")) INSTEAD OF DELETE ON \(link) BEGIN DELETE FROM \(join) WHERE \(source) = OLD.source AND \(target) = OLD.target; END"
                        ]))
            }
        }
    }

    /// Whether the model says `entity.relationship` (its own, inherited or a sub-entity's) is ordered.
    static func isOrdered(_ relationship: String, of entity: String, in lookups: ModelLookups) -> Bool {
        // Looked through in place, not gathered into one array first.
        let declarations = [lookups.model.entity(named: entity)].compactMap { $0 } + lookups.ancestors(of: entity) + lookups.descendants(of: entity)
        return declarations.contains { $0.relationships.contains { $0.name == relationship && $0.isOrdered } }
    }

    /// An ordering found for one entity of a hierarchy holds for every entity that has the
    /// relationship (many-to-many pairs are mapped once, from the first entity met).
    func shareOrderings(_ lookups: ModelLookups) {
        for mapped in entities {
            for r in mapped.entity.relationships where r.isToMany && ordering(of: mapped.entity.name, r.name) == nil {
                let family = lookups.ancestors(of: mapped.entity.name).map(\.name) + lookups.descendants(of: mapped.entity.name).map(\.name)
                if let shared = family.compactMap({ orderings[$0 + "." + r.name] }).first {
                    orderings[mapped.entity.name + "." + r.name] = shared
                }
            }
        }
    }

    /// An entity's number, then its ancestors'.
    static func codes(of name: String, lookups: ModelLookups, numbers: CoreDataNumbers) -> [Int64] {
        ([name] + lookups.ancestors(of: name).map(\.name)).compactMap { numbers.codes[$0] }
    }
}
