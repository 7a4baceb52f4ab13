import Foundation
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// `ACHANGE.ZCOLUMNS`: which properties an update wrote, as Core Data records them for
/// `NSPersistentHistoryChange.updatedProperties`. A bit vector in Core Data's own bit
/// order (`CFBitVector`'s: bit 0 is the high bit, 0x80, of the first byte), one bit per
/// property of the entity (each stored element of a SwiftData composite counting as one),
/// in the order `coreDataOrder` gives (read off Core Data's own
/// rows in Photos.app's store; names alone, which public readers assumed, fail there for
/// any entity with a to-one relationship). The vector is as long as the property list
/// needs (whole bytes), as every one of Photos' vectors is; inserts and deletes have no
/// vector (NULL).
public enum PersistentHistoryColumns {
    /// The vector of an update of `entity` that wrote `changed`, in Core Data's order. A
    /// to-one whose inverse is ordered moves its row's position with it, so its slot is set
    /// too, as Photos' rows set `Z_FOK_PARENTFOLDER` with `parentFolder`.
    /// A composite's element (`author.person`) sets its own bit (each stored element is a
    /// slot of the order); a composite named whole sets the bits of all its elements.
    public static func columns(changed: Set<String>, of entity: String, in model: CoreDataModel) -> Data {
        let order = coreDataOrder(of: entity, in: model)
        var elements: [String: [String]] = [:]
        for attribute in model.allAttributes(of: entity) where attribute.type == .composite {
            elements[attribute.name] = attribute.storedElements.map(\.key)
        }
        let changed = Set(changed.flatMap { elements[$0] ?? [$0] })
        let slots = Set(order.filter { $0.hasPrefix("Z_FOK_") })
        return bitmap(changed: changed.union(changed.map(positionSlot).filter(slots.contains)), order: order)
    }

    /// The order Core Data itself uses, read off the 1,489 update rows it wrote in Photos.app's
    /// store (`photos/`, tested by `PhotosColumnsOrderTests`), where the name order above
    /// fails for any entity with a to-one relationship. Five groups, in this order:
    /// 1. to-one relationships, by name;
    /// 2. one hidden slot per to-one whose inverse is an ordered to-many (the row's
    ///    `Z_FOK_<NAME>` position column), named after that column, by the to-one's name:
    ///    Photos sets it alone when it rewrites an album's place in its folder;
    /// 3. attributes, by name: derived ones count, transient ones do not. A SwiftData
    ///    composite is not one slot here: each of its stored elements is (one per column,
    ///    `storedElements`), placed among the attributes by the element's stored name (the
    ///    name its column is made from), then by its path (`author.id` before `id`, as their
    ///    columns `ZID` and `ZID1` are numbered). Inferred, not read off rows: no store in
    ///    reach has history of an entity with a composite. What is known is that SwiftData's
    ///    own rows for such an entity are wider than one slot per property would make them
    ///    (2 bytes where that gives 1), so the elements count, as Core Data's SQL layer
    ///    flattens them into columns; sorting them as that layer names their columns is the
    ///    best stand-in for where among the attributes they go;
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
            let candidates =
                model.allRelationships(of: relationship.destination)
                + model.descendants(of: relationship.destination).flatMap(\.relationships)
            return candidates.first { $0.name == name }
        }
        let toOne = relationships.filter { !$0.isToMany }.sorted { $0.name < $1.name }
        let positions = toOne.filter { inverse(of: $0).map { $0.isToMany && $0.isOrdered } ?? false }.map { positionSlot(of: $0.name) }
        let toMany = relationships.filter(\.isToMany)
        let manyToMany = toMany.filter { inverse(of: $0)?.isToMany ?? false }.map(\.name)
        let oneToMany = toMany.map(\.name).filter { !manyToMany.contains($0) }
        let attributeSlots = attributes.flatMap(\.storedElements)
            .sorted { ($0.columnName, $0.key) < ($1.columnName, $1.key) }
            .map(\.key)
        return toOne.map(\.name) + positions + attributeSlots + oneToMany.sorted() + manyToMany.sorted()
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

    /// The names whose bits are set in `bitmap` (for reading a store's history back): with
    /// `coreDataOrder`, a composite's element reads back as its key (`author.person`).
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
