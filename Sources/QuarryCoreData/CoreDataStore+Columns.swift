import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// Which column of a root's table holds each property. Core Data names a column `Z` and
/// the property's name upper-cased; where two stored things of one table would get the same
/// name, the first keeps it and each later one takes a numeric suffix, `Z<NAME>1`,
/// `Z<NAME>2`, counting the earlier claimants. Two things collide so:
/// - sibling sub-entities of a hierarchy (one table) each declaring a property of the same
///   name: the first in entity-number order keeps the plain name (`photos/`: Album's
///   `searchIndexRebuildState` is `ZGENERICALBUM.ZSEARCHINDEXREBUILDSTATE`, FetchingAlbum's
///   `ZSEARCHINDEXREBUILDSTATE1`);
/// - within an entity, a composite's elements (flattened into the table, each named like an
///   attribute) and the entity's other properties: properties are taken in order of their
///   names, a composite's elements in the order it declares them. A real SwiftData store
///   shows both ways round: `Cocktail.author` (elements `id`, `person`, `place`, `year`)
///   comes before `Cocktail.id`, so `author.id` is `ZID` and `id` is `ZID1`;
///   `IngredientBase.id` comes before `IngredientBase.prep` (elements `id`, ...), so `id` is
///   `ZID` and `prep.id` is `ZID1` (checked against which rows hold values: every row has
///   its own id, only those with an author or a prep the element's).
/// The compiled model records no column names (no key of the real archives, SwiftData's
/// included, holds one), so the rule is the only source; a column the rule names that the
/// table lacks falls back to the unsuffixed name.
extension CoreDataStore {
    struct PropertyColumns {
        /// A key (a property's name, or a composite element's path): its column name before
        /// any suffix (`author.person`: `ZPERSON`), and each entity declaring it with the
        /// column its declaration got.
        struct Declarations {
            var base: String
            var by: [(entity: String, column: String)] = []

            /// `entity`'s declaration, which took `column`; a key an entity has twice (an
            /// attribute named like a composite's element path) keeps the later column.
            mutating func add(_ entity: String, column: String, base: String) {
                self.base = base
                if let last = by.last, last.entity == entity { by[by.count - 1].column = column } else { by.append((entity, column)) }
            }
        }

        /// By key: one hash a property, where a dictionary of entities' dictionaries and
        /// one of bases hashed the key (and entity names) four times and more; Photos.app's
        /// 1,500 properties were 7 million instructions of hashing at each open.
        var declarations: [String: Declarations] = [:]

        /// What `entity` itself keeps in columns, in the order Core Data names them: its
        /// non-transient attributes (a composite's elements, by path) and to-one
        /// relationships, by property name; with the name each column is made from.
        static func storedKeys(of entity: CoreDataEntity) -> [(key: String, columnName: String)] {
            // By position (-1: a to-one), not an array of keys per property: a plain
            // attribute is its own one key, and only a composite's are listed.
            var properties: [(name: String, attribute: Int)] = []
            properties.reserveCapacity(entity.attributes.count + entity.relationships.count)
            for (i, a) in entity.attributes.enumerated() where !a.isTransient { properties.append((a.name, i)) }
            for r in entity.relationships where !r.isTransient && !r.isToMany { properties.append((r.name, -1)) }
            properties.sort { $0.name < $1.name }
            var keys: [(key: String, columnName: String)] = []
            keys.reserveCapacity(properties.count)
            for (name, i) in properties {
                if i >= 0, entity.attributes[i].type == .composite {
                    keys += entity.attributes[i].storedElements.map { ($0.key, $0.columnName) }
                } else {
                    keys.append((name, name))
                }
            }
            return keys
        }

        /// Assigns columns to the properties that have one (non-transient attributes and
        /// to-one relationships), each declared once in its hierarchy.
        init(_ lookups: ModelLookups, numbers: CoreDataNumbers) {
            var byRoot: [String: [CoreDataEntity]] = [:]
            // Sized once (Photos.app's 1,500 keys grew it eleven times).
            declarations.reserveCapacity(lookups.model.entities.reduce(0) { $0 + $1.attributes.count + $1.relationships.count })
            for entity in lookups.model.entities {
                byRoot[lookups.rootName(of: entity.name) ?? entity.name, default: []].append(entity)
            }
            for (_, family) in byRoot {
                // Entity-number order; an entity the store does not number goes last, by name.
                let ordered = family.sorted { a, b in
                    let (ca, cb) = (numbers.codes[a.name] ?? .max, numbers.codes[b.name] ?? .max)
                    return ca != cb ? ca < cb : a.name < b.name
                }
                var taken: [String: Int] = [:]
                taken.reserveCapacity(family.reduce(0) { $0 + $1.attributes.count + $1.relationships.count })
                for entity in ordered {
                    for (key, columnName) in Self.storedKeys(of: entity) {
                        let base = "Z" + columnName.uppercased()
                        let count = Self.takeCount(&taken[base, default: 0])
                        let column = count == 0 ? base : base + String(count)
                        declarations[key, default: Declarations(base: base)].add(entity.name, column: column, base: base)
                    }
                }
            }
        }

        /// How many claimed a name before, counting this claim.
        private static func takeCount(_ count: inout Int) -> Int {
            defer { count += 1 }
            return count
        }

        /// Where `entity`'s view reads `property`: each declaration it reads, with the
        /// entity numbers whose rows use that declaration's column (none for one it
        /// inherits or makes itself), as the table spells the column (`upper`: the table's
        /// columns by their uppercased names); and the column's name before any suffix.
        /// The declaration is the one `entity` inherits (or its own), else each sub-entity's
        /// that declares it. `chain` is `entity` and its ancestors' names, nearest first
        /// (worked out once per entity, not per property).
        func placed(
            _ property: String, for entity: String, chain: [String], lookups: ModelLookups, numbers: CoreDataNumbers,
            upper: [String: String]
        ) -> (placed: [(codes: [Int64], column: String)], base: String) {
            guard let found = declarations[property] else { return ([], "Z" + property.uppercased()) }
            func column(declaredBy declarer: String) -> String? {
                if let assigned = found.by.first(where: { $0.entity == declarer })?.column, let column = upper[assigned] { return column }
                return upper[found.base]
            }
            if let owner = chain.first(where: { name in found.by.contains { $0.entity == name } }) {
                return (column(declaredBy: owner).map { [(codes: [], column: $0)] } ?? [], found.base)
            }
            let placed = lookups.descendants(of: entity).filter { d in found.by.contains { $0.entity == d.name } }.compactMap { declarer in
                column(declaredBy: declarer.name).map {
                    (codes: lookups.descendants(of: declarer.name).compactMap { numbers.codes[$0.name] }, column: $0)
                }
            }
            return (placed, found.base)
        }

        /// The column `entity`'s declaration of `property` got, as the table spells it
        /// (`upper`: the table's columns by their uppercased names).
        func column(of property: String, declaredBy entity: String, upper: [String: String]) -> String? {
            guard let found = declarations[property] else { return upper["Z" + property.uppercased()] }
            if let assigned = found.by.first(where: { $0.entity == entity })?.column, let column = upper[assigned] { return column }
            return upper[found.base]
        }
    }
}
