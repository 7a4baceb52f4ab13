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
        /// Entity name to property name (a composite element's path) to the column its
        /// declaration got.
        var declared: [String: [String: String]] = [:]
        /// Each key's column name before any suffix (`author.person`: `ZPERSON`).
        var bases: [String: String] = [:]

        /// What `entity` itself keeps in columns, in the order Core Data names them: its
        /// non-transient attributes (a composite's elements, by path) and to-one
        /// relationships, by property name; with the name each column is made from.
        static func storedKeys(of entity: CoreDataEntity) -> [(key: String, columnName: String)] {
            var properties: [(name: String, keys: [(key: String, columnName: String)])] = entity.attributes.filter { !$0.isTransient }.map { a in
                (a.name, a.storedElements.map { ($0.key, $0.columnName) })
            }
            properties += entity.relationships.filter { !$0.isTransient && !$0.isToMany }.map { ($0.name, [($0.name, $0.name)]) }
            return properties.sorted { $0.name < $1.name }.flatMap(\.keys)
        }

        /// Assigns columns to the properties that have one (non-transient attributes and
        /// to-one relationships), each declared once in its hierarchy.
        init(_ lookups: ModelLookups, numbers: CoreDataNumbers) {
            var byRoot: [String: [CoreDataEntity]] = [:]
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
                for entity in ordered {
                    // Each entity's columns gathered apart, then stored once (not a nested
                    // dictionary write, hashing the entity's name, per property).
                    var own: [String: String] = [:]
                    for (key, columnName) in Self.storedKeys(of: entity) {
                        let base = "Z" + columnName.uppercased()
                        let count = Self.takeCount(&taken[base, default: 0])
                        own[key] = count == 0 ? base : base + String(count)
                        bases[key] = base
                    }
                    if !own.isEmpty { declared[entity.name] = own }
                }
            }
        }

        /// How many claimed a name before, counting this claim.
        private static func takeCount(_ count: inout Int) -> Int {
            defer { count += 1 }
            return count
        }

        /// The entities of `entity`'s view that declare `property`: the one it inherits it
        /// from (or itself), else each sub-entity that declares it, with the entity numbers
        /// whose rows use that declaration's column. `chain` is `entity` and its ancestors'
        /// names, nearest first (worked out once per entity, not per property).
        func declarers(of property: String, for entity: String, chain: [String], lookups: ModelLookups,
                       numbers: CoreDataNumbers) -> [(entity: String, codes: [Int64])] {
            if let owner = chain.first(where: { declared[$0]?[property] != nil }) { return [(owner, [])] }
            return lookups.descendants(of: entity).filter { declared[$0.name]?[property] != nil }.map { declarer in
                (declarer.name, lookups.descendants(of: declarer.name).compactMap { numbers.codes[$0.name] })
            }
        }

        /// The column `entity`'s declaration of `property` got, as the table spells it
        /// (`upper`: the table's columns by their uppercased names).
        func column(of property: String, declaredBy entity: String, upper: [String: String]) -> String? {
            let base = bases[property] ?? "Z" + property.uppercased()
            if let assigned = declared[entity]?[property], let column = upper[assigned] { return column }
            return upper[base]
        }
    }
}
