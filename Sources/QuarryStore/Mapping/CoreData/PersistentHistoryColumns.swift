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
    /// The entity's property names in bit order.
    public static func propertyOrder(of entity: String, in model: CoreDataModel) -> [String] {
        let attributes = model.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
        let relationships = model.allRelationships(of: entity).filter { !$0.isTransient }.map(\.name)
        return Array(Set(attributes + relationships)).sorted()
    }

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
