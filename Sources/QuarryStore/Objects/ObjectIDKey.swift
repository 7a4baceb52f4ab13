import QuarryModel

/// How an object ID names a row of a table keyed by one text or UUID column (a PostgreSQL
/// table's `carrier text PRIMARY KEY`): by its key, `airlines/VX`, as a person knows the
/// row, rather than by the number Quarry makes from it. The ID is read back by splitting
/// at its first `/`, so a key may hold `/` as it is (`paths/a/b`). So that every key reads
/// back as itself and nothing else, `%` and control characters are written `%XX` (their
/// UTF-8 bytes), and a key that would read as a row's number (`123`, `-4`) or as an
/// unsaved object's ID (`t3`) has its first character written so (`%3123`, `%743`).
/// Number-keyed IDs (`flights/42`) are as before.
package enum ObjectIDKey {
    /// The key as an object ID shows it.
    package static func escaped(_ key: String) -> String {
        var out = ""
        for (i, scalar) in key.unicodeScalars.enumerated() {
            let readsOtherwise = i == 0 && (Int64(key) != nil || isTemporary(key))
            if readsOtherwise || scalar == "%" || scalar.value < 0x20 || scalar.value == 0x7F {
                for byte in String(scalar).utf8 { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The key an object ID's part after its entity shows (`escaped` undone); nil when it
    /// is a row's number or an unsaved object's, which name no key.
    package static func key(in shown: String) -> String? {
        guard Int64(shown) == nil, !isTemporary(shown) else { return nil }
        var bytes: [UInt8] = []
        var utf8 = Array(shown.utf8)[...]
        while let byte = utf8.first {
            if byte == UInt8(ascii: "%"), utf8.count >= 3,
                let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
                utf8 = utf8.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `t` and digits: what an unsaved object's ID shows after its entity.
    private static func isTemporary(_ text: String) -> Bool {
        text.count > 1 && text.first == "t" && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }
}

extension EntityStorage {
    /// The attribute whose value names its rows in object IDs (`ObjectIDKey`): the one
    /// key column of a table whose rows Quarry numbers from a text or UUID key; nil for
    /// rows known by a number of their own, or by a key of several columns.
    package func namingKey(of entity: EntityDescription) -> String? {
        guard let keys = numberedRows?.keys, keys.count == 1, let attribute = entity.attribute(named: keys[0]),
            attribute.type == .string || attribute.type == .uuid
        else { return nil }
        return keys[0]
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
