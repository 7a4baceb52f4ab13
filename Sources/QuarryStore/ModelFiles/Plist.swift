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
    case dictionary([String: Plist])

    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    var dictionary: [String: Plist]? {
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
