import Foundation

/// A property list value as Quarry's readers give it, typed. Decoding a model archive
/// looks at every field of every object (23,000 entries in Photos.app's model), and
/// casting each out of `Any` (`as? String`, `as? [String: Any]`) asked Swift's runtime
/// for the types' conformances every time: a third of decoding that model.
package enum Plist: Equatable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    /// A keyed archive's reference to an object of its `$objects` array.
    case uid(Int)
    case array([Plist])
    case dictionary(PlistDictionary)

    package var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    package var dictionary: PlistDictionary? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    package var array: [Plist]? {
        if case .array(let a) = self { return a }
        return nil
    }

    package var data: Data? {
        if case .data(let d) = self { return d }
        return nil
    }

    /// A UID's number: a binary list's UID, or `{"CF$UID": n}`, the form a UID takes in an
    /// XML list that was re-encoded.
    package var uid: Int? {
        switch self {
        case .uid(let n): return n
        case .dictionary(let d): return d.count == 1 ? d["CF$UID"]?.int : nil
        default: return nil
        }
    }

    /// An integer (a boolean is none).
    package var int: Int? {
        if case .integer(let n) = self { return n }
        return nil
    }

    /// A number, integer or real.
    package var double: Double? {
        switch self {
        case .real(let d): return d
        case .integer(let n): return Double(n)
        default: return nil
        }
    }

    /// A boolean, or the integers 0 and 1 (some archives write flags as numbers).
    package var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .integer(let n) where n == 0 || n == 1: return n == 1
        default: return nil
        }
    }

    /// What the value is, for messages.
    package var kind: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .real: return "a number"
        case .bool: return "a boolean"
        case .data: return "data"
        case .date: return "a date"
        case .uid: return "a UID"
        case .array: return "an array"
        case .dictionary: return uid != nil ? "a UID" : "a dictionary"
        }
    }
}

/// A property list dictionary: its keys and values in the file's order, looked up by
/// scanning rather than hashing. A keyed archive's objects are small dictionaries
/// (Photos.app's model: 3,080 of them, 7 entries on average) each asked for a few keys
/// once; building Swift dictionaries of them, hashing every key to build and to look up,
/// was a third of decoding that model. A scan compares a tag of each key (its length and
/// end bytes) and only then the key; the tags are of ASCII keys, which are equal as
/// Strings only when their bytes are, so a dictionary with another key, and a big one,
/// gets a hash index instead (String's equality). A key given twice is the later one's,
/// as a dictionary built in order would have it.
package struct PlistDictionary: Equatable {
    /// A key, its `asciiTag` (or `notASCII`), and its value.
    package struct Entry {
        package let tag: UInt64
        package let key: String
        package let value: Plist
    }

    /// In one array, not one each for keys, values and tags: building Photos.app's model
    /// made, grew and freed three arrays for each of its 3,080 dictionaries.
    private(set) var entries: [Entry]
    /// Positions by key, when a key is not ASCII or there are more than `indexedPast`
    /// (else a lookup scans the tags).
    private var index: [String: Int]?

    /// Up to this many entries, a lookup scans.
    static let indexedPast = 32

    package var keys: [String] { entries.map(\.key) }
    package var values: [Plist] { entries.map(\.value) }

    /// `keys[i]` names `values[i]`; extra keys or values are dropped.
    package init(keys: [String], values: [Plist]) {
        self.init(entries: zip(keys, values).map { Entry(tag: Self.asciiTag($0) ?? Self.notASCII, key: $0, value: $1) })
    }

    /// Entries tagged by their maker (a reader that meets one key object in many
    /// dictionaries tags it once).
    package init(entries: [Entry]) {
        self.entries = entries
        if entries.count <= Self.indexedPast, !entries.contains(where: { $0.tag == Self.notASCII }) { return }
        index = Dictionary(entries.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { _, later in later })
    }

    /// The tag of a key that has none (`asciiTag`'s are below 2^48).
    static let notASCII = UInt64.max

    /// An ASCII key's length and its first and last two bytes (keys that differ here
    /// differ); nil for a key that is not ASCII.
    static func asciiTag(_ key: String) -> UInt64? {
        key.utf8.withContiguousStorageIfAvailable(asciiTag) ?? Array(key.utf8).withUnsafeBufferPointer(asciiTag)
    }

    private static func asciiTag(_ b: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var high: UInt8 = 0
        for byte in b { high |= byte }
        guard high < 0x80 else { return nil }
        let n = b.count
        guard n > 0 else { return 0 }
        return UInt64(truncatingIfNeeded: n) << 32 | UInt64(b[0]) << 24 | UInt64(b[min(1, n - 1)]) << 16
            | UInt64(b[max(0, n - 2)]) << 8 | UInt64(b[n - 1])
    }

    package var count: Int { entries.count }
    package var isEmpty: Bool { entries.isEmpty }

    package subscript(key: String) -> Plist? {
        if let index { return index[key].map { entries[$0].value } }
        var i = entries.count
        if let tag = Self.asciiTag(key) {
            while i > 0 {
                i -= 1
                if entries[i].tag == tag && entries[i].key == key { return entries[i].value }
            }
        } else {
            while i > 0 {
                i -= 1
                if entries[i].key == key { return entries[i].value }
            }
        }
        return nil
    }

    /// Equal as dictionaries: the same keys with equal values, in any order.
    package static func == (a: PlistDictionary, b: PlistDictionary) -> Bool {
        let aKeys = Set(a.keys)
        let bKeys = Set(b.keys)
        return aKeys == bKeys && aKeys.allSatisfy { a[$0] == b[$0] }
    }
}
