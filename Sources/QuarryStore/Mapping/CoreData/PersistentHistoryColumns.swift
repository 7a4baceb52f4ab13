import Foundation

/// `ACHANGE.ZCOLUMNS`: which properties an update wrote, as Core Data records them for
/// `NSPersistentHistoryChange.updatedProperties`. A bit vector in Core Data's own bit
/// order (`CFBitVector`'s: bit 0 is the high bit, 0x80, of the first byte), one bit per
/// property of the entity. Bit i stands for the i-th of the entity's stored properties,
/// attributes and relationships together (inherited ones too, transient ones left out),
/// sorted by name: the order a public reader of these tables (Dabbi's
/// `RawHistoryReader`) worked out and checked against a real Notes store, where
/// "attributes, then relationships" and "the table's column order" both failed. The
/// vector is as long as the property list needs (whole bytes); inserts and deletes have
/// no vector (NULL). Where sources are silent (the vector's length), the shortest that
/// holds every property is used: readers test bits, and a bit past the end reads as unset.
public enum PersistentHistoryColumns {
    /// The entity's property names in the bit order Quarry writes: all by name. Core Data's
    /// own rows in Photos.app's store contradict it wherever an entity has a to-one
    /// relationship (see `coreDataOrder`); the writer keeps it only because Quarry's
    /// history tests assert it, pending a decision.
    public static func propertyOrder(of entity: String, in model: CoreDataModel) -> [String] {
        let attributes = model.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
        let relationships = model.allRelationships(of: entity).filter { !$0.isTransient }.map(\.name)
        return Array(Set(attributes + relationships)).sorted()
    }

    /// The order Core Data itself uses, read off the 1,489 update rows it wrote in Photos.app's
    /// store (`photos/`, tested by `PhotosColumnsOrderTests`), where the name order above
    /// fails for any entity with a to-one relationship. Five groups, in this order:
    /// 1. to-one relationships, by name;
    /// 2. one hidden slot per to-one whose inverse is an ordered to-many (the row's
    ///    `Z_FOK_<NAME>` position column), named after that column, by the to-one's name:
    ///    Photos sets it alone when it rewrites an album's place in its folder;
    /// 3. attributes, by name: derived ones count, transient ones do not;
    /// 4. to-many relationships whose inverse is a to-one, or that have no inverse;
    /// 5. many-to-many relationships.
    /// Inherited properties take their place in these groups like declared ones. The
    /// vectors' lengths are exactly the bytes this list needs, for all 19 entities with
    /// updates. Within groups 4 and 5 the rows show Core Data's order is *not* by name
    /// (Asset's `albumsBeingSecondaryKeyAssetFor` comes before `albumsBeingKeyAssetFor`),
    /// and they do not show what it is; name order is used there as the best stand-in.
    public static func coreDataOrder(of entity: String, in model: CoreDataModel) -> [String] {
        var seen = Set<String>()
        let relationships = model.allRelationships(of: entity).filter { !$0.isTransient && seen.insert($0.name).inserted }
        let attributes = model.allAttributes(of: entity).filter { !$0.isTransient && seen.insert($0.name).inserted }
        /// The inverse of `relationship`, looked up in its destination and the destination's
        /// sub-entities (an inverse may be declared below the entity the relationship names).
        func inverse(of relationship: CoreDataRelationship) -> CoreDataRelationship? {
            guard let name = relationship.inverse else { return nil }
            let candidates = model.allRelationships(of: relationship.destination)
                + model.descendants(of: relationship.destination).flatMap(\.relationships)
            return candidates.first { $0.name == name }
        }
        let toOne = relationships.filter { !$0.isToMany }.sorted { $0.name < $1.name }
        let positions = toOne.filter { inverse(of: $0).map { $0.isToMany && $0.isOrdered } ?? false }.map { positionSlot(of: $0.name) }
        let toMany = relationships.filter(\.isToMany)
        let manyToMany = toMany.filter { inverse(of: $0)?.isToMany ?? false }.map(\.name)
        let oneToMany = toMany.map(\.name).filter { !manyToMany.contains($0) }
        return toOne.map(\.name) + positions + attributes.map(\.name).sorted() + oneToMany.sorted() + manyToMany.sorted()
    }

    /// The name `coreDataOrder` gives the hidden slot of a to-one's position in an ordered
    /// to-many: the column Core Data keeps it in, which no property name can equal.
    public static func positionSlot(of toOne: String) -> String { "Z_FOK_" + toOne.uppercased() }

    /// The bit vector with the bits of `changed` set (names not in `order` are ignored).
    public static func bitmap(changed: Set<String>, order: [String]) -> Data {
        var bytes = [UInt8](repeating: 0, count: (order.count + 7) / 8)
        for (i, name) in order.enumerated() where changed.contains(name) {
            bytes[i / 8] |= UInt8(0x80) >> UInt8(i % 8)
        }
        return Data(bytes)
    }

    /// The names whose bits are set in `bitmap` (for reading a store's history back).
    public static func names(in bitmap: Data, order: [String]) -> [String] {
        var names: [String] = []
        for (byteIndex, byte) in bitmap.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (UInt8(0x80) >> UInt8(bit)) != 0 {
                let i = byteIndex * 8 + bit
                if i < order.count { names.append(order[i]) }
            }
        }
        return names
    }
}
