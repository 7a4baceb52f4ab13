/// Two keys of one table to one parent whose columns differ only by a number (Android
/// contacts2's `agg_exceptions(raw_contact_id1, raw_contact_id2)` to `raw_contacts`) are
/// told apart by their numbers, alike: `raw_contact1` and `raw_contact2`, with the inverses
/// `agg_exceptions_as_raw_contact1` and `agg_exceptions_as_raw_contact2`. The general rule
/// would give the first key the plain names (`raw_contact`, `agg_exceptions`) for coming
/// first, and the second its column's words (`raw_contact_id2_raw_contact`); those names
/// stay other names the links answer to. A join table's pair of keys keeps its names
/// (its many-to-many is named from them).
extension ForeignNaming {
    /// A key column ending in a number after its key suffix, read as its stem and the
    /// number (`raw_contact_id1` -> `raw_contact1`, `parentId2` -> `parent2`,
    /// `contact_id_2` -> `contact_2`), with the stem alone (`raw_contact`) that tells which
    /// columns are siblings; nil for any other column (`address1`, `raw_contact_id`).
    package static func numberedStem(_ column: String) -> (name: String, stem: String)? {
        // Most columns end in no digit, and their words need not be read.
        guard let last = column.utf8.last, (0x30...0x39).contains(last) else { return nil }
        // In capitals only, as in lower case (`RAW_CONTACT_ID1`), as `relationshipName` reads it.
        let column = column.contains(where: \.isUppercase) && !column.contains(where: \.isLowercase) ? column.lowercased() : column
        let number = String(column.reversed().prefix { $0.isASCII && $0.isNumber }.reversed())
        guard !number.isEmpty else { return nil }
        var base = String(column.dropLast(number.count))
        let separator = base.hasSuffix("_") ? "_" : ""
        base = String(base.dropLast(separator.count))
        let stem = relationshipStem(base)
        guard !stem.isEmpty, stem.lowercased() != lowerCamel(base).lowercased() else { return nil }
        return (stem + separator + number, stem)
    }

    /// The columns among `keys` (one-column keys of one table, with the parent each names)
    /// that share a parent and a stem with another key and differ from it by their number.
    package static func numberedColumns(_ keys: [(column: String, parent: String)]) -> Set<String> {
        var siblings: [String: [String]] = [:]
        for key in keys {
            guard let numbered = numberedStem(key.column) else { continue }
            siblings[key.parent + "\u{0}" + numbered.stem, default: []].append(key.column)
        }
        return Set(siblings.values.filter { $0.count > 1 }.joined())
    }
}
