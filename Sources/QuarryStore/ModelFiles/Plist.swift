import Foundation

/// A property list value as Quarry's readers give it, typed. Decoding a model archive
/// looks at every field of every object (23,000 entries in Photos.app's model), and
/// casting each out of `Any` (`as? String`, `as? [String: Any]`) asked Swift's runtime
/// for the types' conformances every time: a third of decoding that model.
enum Plist: Equatable {
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

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    var dictionary: PlistDictionary? {
        if case .dictionary(let d) = self { return d }
        return nil
    }

    var array: [Plist]? {
        if case .array(let a) = self { return a }
        return nil
    }

    var data: Data? {
        if case .data(let d) = self { return d }
        return nil
    }

    /// A UID's number: a binary list's UID, or `{"CF$UID": n}`, the form a UID takes in an
    /// XML list that was re-encoded.
    var uid: Int? {
        switch self {
        case .uid(let n): return n
        case .dictionary(let d): return d.count == 1 ? d["CF$UID"]?.int : nil
        default: return nil
        }
    }

    /// An integer (a boolean is none).
    var int: Int? {
        if case .integer(let n) = self { return n }
        return nil
    }

    /// A number, integer or real.
    var double: Double? {
        switch self {
        case .real(let d): return d
        case .integer(let n): return Double(n)
        default: return nil
        }
    }

    /// A boolean, or the integers 0 and 1 (some archives write flags as numbers).
    var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .integer(let n) where n == 0 || n == 1: return n == 1
        default: return nil
        }
    }

    /// What the value is, for messages.
    var kind: String {
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
struct PlistDictionary: Equatable {
    private(set) var keys: [String]
    private(set) var values: [Plist]
    /// Each key's `asciiTag`, when every key is ASCII and there are no more than `indexedPast`.
    private var tags: [UInt64]?
    /// Positions by key, when there are no tags.
    private var index: [String: Int]?

    /// Up to this many entries, a lookup scans.
    static let indexedPast = 32

    /// `keys[i]` names `values[i]` (the readers make both of one length). `tags`, when
    /// given, holds each key's `asciiTag`, or `notASCII` (a reader that meets one key
    /// object in many dictionaries tags it once).
    init(keys: [String], values: [Plist], tags given: [UInt64]? = nil) {
        let n = min(keys.count, values.count)
        self.keys = n == keys.count ? keys : Array(keys[..<n])
        self.values = n == values.count ? values : Array(values[..<n])
        if n <= Self.indexedPast {
            let tags = given.map { $0.count == n ? $0 : Array($0.prefix(n)) } ?? self.keys.map { Self.asciiTag($0) ?? Self.notASCII }
            if tags.count == n, !tags.contains(Self.notASCII) {
                self.tags = tags
                return
            }
        }
        index = Dictionary(self.keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, later in later })
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

    var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }

    subscript(key: String) -> Plist? {
        guard let tags else { return index?[key].map { values[$0] } }
        var i = keys.count
        if let tag = Self.asciiTag(key) {
            while i > 0 {
                i -= 1
                if tags[i] == tag && keys[i] == key { return values[i] }
            }
        } else {
            while i > 0 {
                i -= 1
                if keys[i] == key { return values[i] }
            }
        }
        return nil
    }

    /// Equal as dictionaries: the same keys with equal values, in any order.
    static func == (a: PlistDictionary, b: PlistDictionary) -> Bool {
        let aKeys = Set(a.keys), bKeys = Set(b.keys)
        return aKeys == bKeys && aKeys.allSatisfy { a[$0] == b[$0] }
    }
}
