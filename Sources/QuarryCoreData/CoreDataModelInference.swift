import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// A model for a Core Data store that carries none and was given none: entities from
/// `Z_PRIMARYKEY` (names and super-entities), attributes from their table's `Z` columns
/// (`ZPREPTIME` becomes `preptime`; types from the declared column types, `TIMESTAMP` a
/// date), and an integer column named after an entity, or with the target's entity number
/// beside it (`entityNumberColumns`), or indexed as Core Data indexes a to-one's key and
/// named after the end of one entity's name (`destination(namedAfter:)`), a to-one
/// relationship to it, with a to-many inverse
/// (ordered when a `Z_FOK_` column beside the key keeps its order), a to-many with no
/// inverse from the owner's key kept in the destination's table (`hiddenToManyOwner`), and
/// each join table a many-to-many pair (`joinPairs`). Names come out lowercased: the store
/// does not keep their case. The notes say which relationships' names were read from
/// join tables.
enum CoreDataModelInference {
    static func infer(_ db: Database, numbers: CoreDataNumbers) throws -> (model: CoreDataModel, notes: [String]) {
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'"))
        // Core Data's own history entities (CHANGE, TRANSACTION, TRANSACTIONSTRING, from
        // 16001) are listed in Z_PRIMARYKEY but are no part of the app's model.
        let history: Set = [
            PersistentHistoryLayout.changeEntityName, PersistentHistoryLayout.transactionEntityName,
            PersistentHistoryLayout.stringEntityName
        ]
        // CloudKit mirroring's (`CloudKitMirroring`) are not either.
        let codes = numbers.codes.filter {
            !(history.contains($0.key) && $0.value > 16000) && !CloudKitMirroring.isMirrorEntity($0.key, code: $0.value)
        }
        let byUpper = Dictionary(codes.keys.map { ($0.uppercased(), $0) }, uniquingKeysWith: { a, _ in a })
        var entities: [String: CoreDataEntity] = [:]
        for name in codes.keys.sorted() {
            entities[name] = CoreDataEntity(name: name, parent: numbers.supers[name], attributes: [], relationships: [])
        }
        // Only roots own tables; their columns are shared by the whole hierarchy, so they
        // are given to the root.
        for name in codes.keys.sorted() where numbers.supers[name] == nil {
            let table = "Z" + name.uppercased()
            guard tables.contains(table) else { continue }
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoteIdentifier(table)))")
            let upperNames = Set(columns.compactMap { String.fromDatabaseValue($0[1] as DatabaseValue)?.uppercased() })
            let typed = entityNumberColumns(upperNames, numbers: numbers, codes: codes)
            let indexed = try toOneIndexedColumns(db, table: table)
            for column in columns {
                let columnName: String = try column.stored(1, table: table, column: "name")
                let declared: String = (try column.storedIfPresent(2, table: table, column: "type")) ?? ""
                let upper = columnName.uppercased()
                guard upper.hasPrefix("Z"), !upper.hasPrefix("Z_"), upper.count > 1, !typed.columns.contains(upper) else { continue }
                let key = String(upper.dropFirst())
                let namedAfter = indexed.contains(upper) ? destination(namedAfter: key, codes: codes, supers: numbers.supers) : nil
                if let destination = typed.destinations[key] ?? byUpper[key] ?? namedAfter, declared.uppercased().contains("INT") {
                    // One name per entity: a second to-one to the same destination names
                    // its inverse after itself too (`coretransportpayloads_sourceorganizationpending`).
                    let plain = name.lowercased() + "s"
                    let taken =
                        entities[destination].map { e in e.relationships.contains { $0.name == plain } || e.attributes.contains { $0.name == plain } }
                        ?? false
                    let inverse = taken ? plain + "_" + key.lowercased() : plain
                    entities[name]?.relationships.append(CoreDataRelationship(name: key.lowercased(), destination: destination, inverse: inverse))
                    // A `Z_FOK_` column beside the key keeps the order of an ordered to-many.
                    entities[destination]?.relationships.append(
                        CoreDataRelationship(
                            name: inverse, destination: name, inverse: key.lowercased(), isToMany: true,
                            isOrdered: upperNames.contains("Z_FOK_" + key)))
                    continue
                }
                if let owner = hiddenToManyOwner(key, numbers: numbers, codes: codes), declared.uppercased().contains("INT") {
                    let relationship = String(key.drop { $0.isASCII && $0.isNumber }).lowercased()
                    if entities[owner].map({ e in !e.relationships.contains { $0.name == relationship } }) == true {
                        entities[owner]?.relationships.append(CoreDataRelationship(name: relationship, destination: name, isToMany: true))
                        continue
                    }
                }
                entities[name]?.attributes.append(CoreDataAttribute(name: key.lowercased(), type: type(declared)))
            }
        }
        var joined: [String] = []
        for pair in try joinPairs(db, tables: tables, numbers: numbers, codes: codes) {
            // A name the entity already has (a to-one's inferred inverse) is not taken twice.
            let clash = pair.sides.contains { side in
                entities[side.owner].map { e in
                    e.relationships.contains { $0.name == side.relationship.name } || e.attributes.contains { $0.name == side.relationship.name }
                } ?? true
            }
            guard !clash else { continue }
            for side in pair.sides { entities[side.owner]?.relationships.append(side.relationship) }
            joined.append("\(pair.table) (" + pair.sides.map { "\($0.owner).\($0.relationship.name)" }.joined(separator: ", ") + ")")
        }
        var notes: [String] = []
        if !joined.isEmpty {
            let listed = joined.prefix(3).joined(separator: "; ") + (joined.count > 3 ? "; and \(joined.count - 3) more" : "")
            notes.append(
                "many-to-many relationships inferred from the store's join tables, named after their key columns (the store does not keep the model's names or their case): \(listed)"
            )
        }
        return (CoreDataModel(entities: entities.values.sorted { $0.name < $1.name }), notes)
    }

    /// A to-one whose destination has sub-entities keeps the target's entity number in a
    /// column `Z<n>_<NAME>` beside its key `Z<NAME>`, n the destination's number
    /// (`screentime/`: `ZBLUEPRINT.Z7_ORGANIZATION`, 7 CoreOrganization): such keys by
    /// NAME with their destination, and the number columns, which are no attributes.
    static func entityNumberColumns(
        _ upperNames: Set<String>, numbers: CoreDataNumbers,
        codes: [String: Int64]
    ) -> (destinations: [String: String], columns: Set<String>) {
        var destinations: [String: String] = [:]
        var columns: Set<String> = []
        for column in upperNames.sorted() where column.hasPrefix("Z") {
            let rest = column.dropFirst()
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let after = rest.dropFirst(digits.count)
            guard let code = Int64(digits), after.hasPrefix("_"), after.count > 1 else { continue }
            let key = String(after.dropFirst())
            guard upperNames.contains("Z" + key), let destination = numbers.names[code], codes[destination] == code else { continue }
            destinations[key] = destination
            columns.insert(column)
        }
        return (destinations, columns)
    }

    /// The columns of `table` Core Data indexed as it indexes every to-one's key column,
    /// `Z<TABLE>_Z<NAME>_INDEX` (`cars/`: `ZCAR_ZOWNER_INDEX`); an attribute's index, which
    /// a model asks for, is named after the entity (`Z_Car_UNIQUE_numberPlate`). Upper-cased.
    static func toOneIndexedColumns(_ db: Database, table: String) throws -> Set<String> {
        let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", arguments: [table])
        let prefix: String = table.uppercased() + "_"
        var columns: Set<String> = []
        for name in names {
            let upper: String = name.uppercased()
            guard upper.hasPrefix(prefix + "Z"), upper.hasSuffix("_INDEX"), !upper.hasPrefix(prefix + "Z_") else { continue }
            columns.insert(String(upper.dropFirst(prefix.count).dropLast("_INDEX".count)))
        }
        return columns
    }

    /// A to-one named after its relationship, not its destination (`ZCATEGORY` holding keys
    /// of UsageCategory, `screentime/`): the one entity whose name ends in the column's
    /// NAME, or the top of the one hierarchy whose entities' names do (`ZORGANIZATION`: the
    /// CoreOrganization whose sub-entities Cloud-, Family- and LocalOrganization all end in
    /// it). None when two unrelated entities fit (`ZSCHEDULE`: BlueprintSchedule and
    /// DailySchedule), or when NAME ends in a digit (a sibling's numbered column, `ZUSER1`).
    static func destination(namedAfter key: String, codes: [String: Int64], supers: [String: String]) -> String? {
        guard let last = key.last, last.isLetter else { return nil }
        let candidates = Set(codes.keys.filter { $0.count > key.count && $0.uppercased().hasSuffix(key) })
        func hasCandidateAbove(_ name: String) -> Bool {
            var seen: Set<String> = [name]
            var current = supers[name]
            while let parent = current, seen.insert(parent).inserted {
                if candidates.contains(parent) { return true }
                current = supers[parent]
            }
            return false
        }
        let tops = candidates.filter { !hasCandidateAbove($0) }
        return tops.count == 1 ? tops.first : nil
    }

    /// A to-many with no inverse keeps its owner's key in a column `Z<n><NAME>` of the
    /// destination's table, n the owner's number (`photos/`:
    /// `ZASSETCONTRIBUTOR.Z3LIBRARYSCOPEASSETCONTRIBUTORS`, Asset's): the owner of `key`
    /// (the column without its `Z`) when it is such a column.
    static func hiddenToManyOwner(_ key: String, numbers: CoreDataNumbers, codes: [String: Int64]) -> String? {
        let digits = key.prefix { $0.isASCII && $0.isNumber }
        guard let code = Int64(digits), let first = key.dropFirst(digits.count).first, first.isLetter,
            let owner = numbers.names[code], codes[owner] == code
        else { return nil }
        return owner
    }

    /// A join table's many-to-many pair: one or two sides, each a relationship and the
    /// entity declaring it (one side when an entity's relationship is its own inverse).
    struct JoinPair {
        var table: String
        var sides: [(owner: String, relationship: CoreDataRelationship)]
    }

    /// Core Data's join tables `Z_<n><NAME>`. Each of the two key columns `Z_<n><NAME>`
    /// holds keys of entity n, the members of the relationship NAME of the entity whose
    /// keys the other column holds (`screentime/`: `Z_2USERS(Z_2BLUEPRINTS, Z_16USERS)`
    /// is Blueprint.users, members in `Z_16USERS`, with the inverse CoreUser.blueprints).
    /// `REFLEXIVE` in place of one column makes it a relationship of entity n to itself,
    /// its own inverse (`photos/`: `Z_47MERGECANDIDATES`); a column `Z_FOK_<n><NAME>`
    /// keeps the order of the members of NAME. A name Core Data gave a numeric suffix to
    /// tell it from another join table's column (`Z_3REPRESENTATIVEASSETS1` beside
    /// `Z_3REPRESENTATIVEASSETS`) is read without it.
    static func joinPairs(
        _ db: Database, tables: Set<String>, numbers: CoreDataNumbers,
        codes: [String: Int64]
    ) throws -> [JoinPair] {
        var found: [(table: String, keys: [String], ordered: Set<String>)] = []
        for table in tables.sorted() where keyColumn(table.uppercased()) != nil {
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoteIdentifier(table)))")
                .compactMap { String.fromDatabaseValue($0[1] as DatabaseValue)?.uppercased() }
            let keys = columns.filter { !$0.hasPrefix("Z_FOK_") }
            let ordered = Set(columns.filter { $0.hasPrefix("Z_FOK_") }.map { "Z_" + $0.dropFirst("Z_FOK_".count) })
            guard keys.count == 2, keys.allSatisfy({ keyColumn($0) != nil || $0 == "REFLEXIVE" }),
                keys.contains(where: { keyColumn($0) != nil })
            else { continue }
            found.append((table, keys, ordered))
        }
        let allKeys = Set(found.flatMap(\.keys))
        func entity(_ code: Int64) -> String? { numbers.names[code].flatMap { codes[$0] == code ? $0 : nil } }
        func name(_ column: String, _ base: String) -> String {
            let stripped = String(base.reversed().drop { $0.isASCII && $0.isNumber }.reversed())
            let prefix = String(column.dropLast(base.count))
            let suffixed = stripped.count < base.count && !stripped.isEmpty && allKeys.contains(prefix + stripped)
            return (suffixed ? stripped : base).lowercased()
        }
        var pairs: [JoinPair] = []
        for (table, keys, ordered) in found {
            let parsed = keys.compactMap { column in keyColumn(column).map { (column: column, code: $0.code, base: $0.name) } }
            if parsed.count == 1, let only = parsed.first, let owner = entity(only.code) {
                let relationship = name(only.column, only.base)
                pairs.append(
                    JoinPair(
                        table: table,
                        sides: [
                            (
                                owner,
                                CoreDataRelationship(
                                    name: relationship, destination: owner, inverse: relationship,
                                    isToMany: true, isOrdered: ordered.contains(only.column))
                            )
                        ]))
                continue
            }
            guard parsed.count == 2, let a = entity(parsed[0].code), let b = entity(parsed[1].code) else { continue }
            let (nameA, nameB) = (name(parsed[0].column, parsed[0].base), name(parsed[1].column, parsed[1].base))
            // Column A holds a's keys: the members of b's relationship named by column A.
            pairs.append(
                JoinPair(
                    table: table,
                    sides: [
                        (
                            b,
                            CoreDataRelationship(
                                name: nameA, destination: a, inverse: nameB, isToMany: true, isOrdered: ordered.contains(parsed[0].column))
                        ),
                        (
                            a,
                            CoreDataRelationship(
                                name: nameB, destination: b, inverse: nameA, isToMany: true, isOrdered: ordered.contains(parsed[1].column))
                        )
                    ]))
        }
        return pairs
    }

    /// `Z_<n><NAME>` (upper-cased) read as n and NAME; nil for any other name.
    static func keyColumn(_ upper: String) -> (code: Int64, name: String)? {
        guard upper.hasPrefix("Z_") else { return nil }
        let rest = upper.dropFirst(2)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        let name = rest.dropFirst(digits.count)
        guard let code = Int64(digits), let first = name.first, first.isLetter else { return nil }
        return (code, String(name))
    }

    /// Core Data's declared column types, read back as attribute types.
    package static func type(_ declared: String) -> CoreDataAttributeType {
        let t = declared.uppercased()
        if t.contains("TIMESTAMP") { return .date }
        if t.contains("INT") { return .integer64 }
        if t.contains("FLOAT") || t.contains("REAL") || t.contains("DOUBLE") { return .double }
        if t.contains("DECIMAL") { return .decimal }
        if t.contains("BLOB") { return .binary }
        return .string
    }
}
