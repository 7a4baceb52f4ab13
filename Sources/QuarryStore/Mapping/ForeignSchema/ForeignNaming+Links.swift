import QuarryModel

/// One naming rule for a to-one through a column and its inverse to-many, whoever makes
/// them (a foreign key of a file, `relate()`): the to-one by its column's stem or its
/// target in the singular (`relationshipName`), the to-many by the entity at its other end
/// in the plural (`inverseName`), words of the column added only where two names would
/// collide. The names earlier rules gave the same link (`book_set`, `flight_set`,
/// `history_item_history_item`) are kept as other names the link answers to
/// (`EntityDescription.relationshipAliases`), so scripts and sidecars written with them
/// keep working.
extension ForeignNaming {
    /// A link's names, and the other names each side also answers to.
    package struct LinkNames: Equatable {
        package var relationship: String
        package var inverse: String
        /// Names of the to-one on the source entity besides `relationship`.
        package var relationshipAliases: [String] = []
        /// Names of the to-many on the destination entity besides `inverse`.
        package var inverseAliases: [String] = []
    }

    /// The names of the link from `source` through `column` to `destination`'s
    /// `parentColumn`. `name` and `inverse`, when given, are the caller's (free or not:
    /// the caller refuses a taken one); `isFree` says whether a name may be a new key of an
    /// entity. An other name is one no key and no other name of its entity has.
    /// `numbered`: the key is one of a table's keys to one parent that differ by a number
    /// (`ForeignNaming+NumberedKeys`): named by its stem and number, its inverse by the
    /// plural, `as` and that name, the names the rule gives otherwise kept as other names.
    package static func linkNames(
        source: EntityDescription, column: String, destination: EntityDescription, parentColumn: String,
        name: String? = nil, inverse givenInverse: String? = nil, numbered: Bool = false, isFree: (String, EntityDescription) -> Bool
    ) -> LinkNames {
        let selfReference = source.name == destination.name
        let plainName = {
            relationshipName(column: column, destination: destination.name, parentColumn: parentColumn, selfReference: selfReference, isFree: $0)
        }
        let byNumber = name == nil && numbered ? numberedStem(column).map(\.name).flatMap { isFree($0, source) ? $0 : nil } : nil
        let relationship = name ?? byNumber ?? plainName { isFree($0, source) }
        let inverse =
            givenInverse
            ?? inverseName(source: source.name, relationship: relationship, column: column, selfReference: selfReference, qualified: byNumber != nil)
        {
            isFree($0, destination) && !(selfReference && $0 == relationship)
        }
        // An earlier name counts as free where the new name took its place.
        func unused(_ candidate: String, in entity: EntityDescription, besides new: String) -> Bool {
            (isFree(candidate, entity) || candidate == new) && entity.relationshipAliases[candidate] == nil
        }
        let earlier = earlierNames(
            source: source.name, column: column, destination: destination.name, relationship: name, selfReference: selfReference,
            relationshipIsFree: { unused($0, in: source, besides: relationship) },
            inverseIsFree: { unused($0, in: destination, besides: inverse) && !(selfReference && $0 == relationship) })
        var names = LinkNames(relationship: relationship, inverse: inverse)
        if name == nil {
            let former = relationshipName(column: column, destination: destination.name, parentColumn: parentColumn, former: true) {
                unused($0, in: source, besides: relationship)
            }
            names.relationshipAliases = otherNames([earlier.relationship, former], besides: relationship)
        }
        // A numbered key answers to the names the rule gives it otherwise as well.
        var plainInverse: [String] = []
        if byNumber != nil {
            let plain = plainName { unused($0, in: source, besides: relationship) }
            names.relationshipAliases = otherNames(names.relationshipAliases + [plain], besides: relationship)
            if givenInverse == nil {
                plainInverse = [
                    inverseName(source: source.name, relationship: plain, column: column, selfReference: selfReference) {
                        unused($0, in: destination, besides: inverse) && !(selfReference && $0 == relationship)
                    }
                ]
            }
        }
        if givenInverse == nil {
            names.inverseAliases = otherNames([earlier.inverse] + plainInverse, besides: inverse).filter { !(selfReference && $0 == relationship) }
        }
        return names
    }

    /// `candidates` without `name` and repeats, in order.
    static func otherNames(_ candidates: [String], besides name: String) -> [String] {
        var seen: Set<String> = [name]
        return candidates.filter { seen.insert($0).inserted }
    }
}

extension EntityDescription {
    /// Makes each of `names` another name of relationship `relationship`, unless it is one
    /// of the entity's keys or already another name.
    package mutating func alias(_ names: [String], to relationship: String) {
        for name in names where name != relationship && relationshipAliases[name] == nil && !hasKey(name) {
            relationshipAliases[name] = relationship
        }
    }
}
