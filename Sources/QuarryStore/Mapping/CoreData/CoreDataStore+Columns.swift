/// Which column of a root's table holds each property. A hierarchy shares one table, and
/// sibling sub-entities may each declare a property of the same name: Core Data gives the
/// first (in entity-number order) `Z<NAME>`, and each later one a numeric suffix,
/// `Z<NAME>1`, `Z<NAME>2` (`photos/`: Album's `searchIndexRebuildState` is
/// `ZGENERICALBUM.ZSEARCHINDEXREBUILDSTATE`, FetchingAlbum's `ZSEARCHINDEXREBUILDSTATE1`).
/// The compiled model records no column names (no key of the real archives in
/// `../shared/data/coredata` holds one), so the rule is the only source; a column the
/// rule names that the table lacks falls back to `Z<NAME>`.
extension CoreDataStore {
    struct PropertyColumns {
        /// Entity name to property name to the column its declaration got.
        var declared: [String: [String: String]] = [:]

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
                    let names = entity.attributes.filter { !$0.isTransient }.map(\.name)
                        + entity.relationships.filter { !$0.isTransient && !$0.isToMany }.map(\.name)
                    for name in names {
                        let base = "Z" + name.uppercased()
                        let count = taken[base, default: 0]
                        taken[base] = count + 1
                        declared[entity.name, default: [:]][name] = count == 0 ? base : base + String(count)
                    }
                }
            }
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
            let base = "Z" + property.uppercased()
            if let assigned = declared[entity]?[property], let column = upper[assigned] { return column }
            return upper[base]
        }
    }
}
