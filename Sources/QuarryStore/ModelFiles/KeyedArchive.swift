/// A reader for `NSKeyedArchiver` property lists, written because Foundation on Linux has
/// no Core Data classes for `NSKeyedUnarchiver` to instantiate. The plist is parsed with
/// `PropertyListSerialization`; the object table (`$objects`) is then walked by hand, every
/// reference (UID) bounds-checked and every value type-checked, so a broken archive is a
/// `ModelFileError`, never a trap.
///
/// UIDs: `BinaryPropertyList` gives them as its `UID`. From XML, on Linux, `PropertyListSerialization` hands them out as instances of the internal
/// class `_NSKeyedArchiverUID`, whose number is only reachable through reflection (a stored
/// `value: UInt32`); re-encoded as XML (or on Darwin, sometimes) they are `{"CF$UID": n}`.
/// Both are accepted.
///
/// Sharing: a binary plist whose objects would expand far past its size is refused before
/// Foundation parses it (`BinaryPlistCheck`); and objects may name each other by UID many
/// times over (a uniqueness constraint's array named by 10^6 entities, a subpredicate
/// shared at each of 8 levels), so every step of the walk spends from `work`, a budget
/// proportional to the archive's size that a real model never exhausts.
import Foundation

struct KeyedArchive {
    let objects: [Any]
    let path: String
    let root: Int
    let work: WorkBudget
    /// Each class's names (`$classes`) by the index of its class object, read once: every
    /// instance of a class names the same one (1,154 attributes in Photos.app's model).
    private let classNames = ClassNames()

    init(data: Data, path: String) throws {
        self.path = path
        work = WorkBudget(limit: 16 * data.count + (1 << 20), path: path)
        let plist = try PropertyListValue.read(data, path: path)
        guard let top = plist as? [String: Any] else { throw ModelFileError(.malformedPlist, path: path, "the top level is not a dictionary") }
        guard top["$archiver"] as? String == "NSKeyedArchiver" else {
            throw ModelFileError(.brokenArchive, path: path, "not an NSKeyedArchiver archive (no $archiver)")
        }
        guard let objects = top["$objects"] as? [Any] else { throw ModelFileError(.brokenArchive, path: path, "no $objects array") }
        self.objects = objects
        guard let roots = top["$top"] as? [String: Any], let rootRef = roots["root"] else {
            throw ModelFileError(.brokenArchive, path: path, "no $top.root")
        }
        guard let root = KeyedArchive.uid(rootRef) else { throw ModelFileError(.brokenArchive, path: path, "$top.root is not a UID") }
        guard root > 0, root < objects.count else { throw ModelFileError(.brokenArchive, path: path, "$top.root UID \(root) is out of range (\(objects.count) objects)") }
        self.root = root
    }

    func broken(_ detail: String) -> ModelFileError { ModelFileError(.brokenArchive, path: path, detail) }

    /// Counts `units` of work (objects visited, UIDs listed, characters rendered).
    func spend(_ units: Int) throws { try work.spend(units) }

    /// The number inside a keyed-archiver UID, or nil when `value` is not one.
    static func uid(_ value: Any) -> Int? {
        if let uid = value as? BinaryPropertyList.UID { return uid.value }
        if let dictionary = value as? [String: Any], dictionary.count == 1, let n = dictionary["CF$UID"] {
            return PlistValue.int(n)
        }
        guard value is NSObject, String(describing: type(of: value)) == "_NSKeyedArchiverUID" else { return nil }
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let n = child.value as? UInt32 { return Int(n) }
            if let n = child.value as? UInt64, n <= UInt64(Int.max) { return Int(n) }
            if let n = child.value as? Int { return n }
        }
        return nil
    }

    /// The object a UID names; nil for `$null` (UID 0).
    func resolve(_ ref: Any, key: String, in owner: Int) throws -> Any? {
        guard let n = KeyedArchive.uid(ref) else { throw broken("object \(owner) key \(key): expected a UID, got \(PlistValue.kind(ref))") }
        guard n >= 0, n < objects.count else { throw broken("object \(owner) key \(key): UID \(n) is out of range (\(objects.count) objects)") }
        if n == 0 { return nil }
        if let s = objects[n] as? String, s == "$null" { return nil }
        return objects[n]
    }

    /// The object at index `n` as a class instance (a dictionary with `$class`).
    func instance(_ n: Int) throws -> ArchivedObject {
        try spend(1)
        guard n > 0, n < objects.count else { throw broken("UID \(n) is out of range (\(objects.count) objects)") }
        guard let fields = objects[n] as? [String: Any] else { throw broken("object \(n) is \(PlistValue.kind(objects[n])), not an instance") }
        guard let classRef = fields["$class"], let c = KeyedArchive.uid(classRef), c > 0, c < objects.count,
              let classInfo = objects[c] as? [String: Any], let className = classInfo["$classname"] as? String else {
            throw broken("object \(n) has no valid $class")
        }
        let classes: [String]
        if let known = classNames.byIndex[c] {
            classes = known
        } else {
            classes = (classInfo["$classes"] as? [Any])?.compactMap { $0 as? String } ?? [className]
            classNames.byIndex[c] = classes
        }
        return ArchivedObject(archive: self, index: n, fields: fields, className: className, classes: classes)
    }

    var rootObject: ArchivedObject { get throws { try instance(root) } }
}

/// One archived instance: its class and fields, with typed accessors that check every value.
struct ArchivedObject {
    let archive: KeyedArchive
    let index: Int
    let fields: [String: Any]
    let className: String
    /// The class and its superclasses, as archived (`$classes`).
    let classes: [String]

    func isKind(of name: String) -> Bool { classes.contains(name) }

    private func broken(_ key: String, _ what: String) -> ModelFileError {
        archive.broken("\(className) (object \(index)) key \(key): \(what)")
    }

    /// An inline integer; nil when absent.
    func int(_ key: String) throws -> Int? {
        guard let v = fields[key] else { return nil }
        guard let n = PlistValue.int(v) else { throw broken(key, "expected an integer, got \(PlistValue.kind(v))") }
        return n
    }

    /// An inline boolean; absent is false (Core Data leaves out false flags).
    func bool(_ key: String) throws -> Bool {
        guard let v = fields[key] else { return false }
        guard let b = PlistValue.bool(v) else { throw broken(key, "expected a boolean, got \(PlistValue.kind(v))") }
        return b
    }

    /// The referenced object, raw (a string, number, data or instance dictionary); nil for absent or `$null`.
    func referenced(_ key: String) throws -> Any? {
        guard let ref = fields[key] else { return nil }
        return try archive.resolve(ref, key: key, in: index)
    }

    /// A referenced string: a plain string, or an `NSString`/`NSMutableString` instance.
    func string(_ key: String) throws -> String? {
        guard let ref = fields[key] else { return nil }
        // A UID first: it is the usual case, and failing a cast to String is the slow path.
        if let uid = ref as? BinaryPropertyList.UID {
            return try archive.string(at: uid.value, context: "\(className) (object \(index)) key \(key)")
        }
        if let s = ref as? String { return s }
        guard let n = KeyedArchive.uid(ref) else { throw broken(key, "expected a string, got \(PlistValue.kind(ref))") }
        return try archive.string(at: n, context: "\(className) (object \(index)) key \(key)")
    }

    /// A referenced instance; nil for absent or `$null`.
    func object(_ key: String) throws -> ArchivedObject? {
        guard let ref = fields[key] else { return nil }
        guard let n = KeyedArchive.uid(ref) else { throw broken(key, "expected a UID, got \(PlistValue.kind(ref))") }
        guard n >= 0, n < archive.objects.count else { throw broken(key, "UID \(n) is out of range (\(archive.objects.count) objects)") }
        if n == 0 { return nil }
        return try archive.instance(n)
    }

    /// The UIDs listed under `key` (as in `NS.objects`), bounds-checked.
    func uids(_ key: String) throws -> [Int] {
        guard let v = fields[key] else { return [] }
        guard let list = v as? [Any] else { throw broken(key, "expected an array, got \(PlistValue.kind(v))") }
        try archive.spend(list.count)
        return try list.map { item in
            guard let n = KeyedArchive.uid(item) else { throw broken(key, "expected UIDs, got \(PlistValue.kind(item))") }
            guard n > 0, n < archive.objects.count else { throw broken(key, "UID \(n) is out of range (\(archive.objects.count) objects)") }
            return n
        }
    }
}

extension KeyedArchive {
    /// The string at UID `n`: inline, or an `NSString`-like instance with `NS.string`.
    /// `context` is made only for an error: reading a model asks for thousands of strings.
    func string(at n: Int, context: @autoclosure () -> String) throws -> String? {
        try spend(1)
        guard n >= 0, n < objects.count else { throw broken("\(context()): UID \(n) is out of range (\(objects.count) objects)") }
        if n == 0 { return nil }
        if let s = objects[n] as? String { return s }
        let object = try instance(n)
        if let s = object.fields["NS.string"] as? String { return s }
        if let bytes = object.fields["NS.bytes"] as? Data, let s = String(data: bytes, encoding: .utf8) { return s }
        throw broken("\(context()): expected a string, got \(object.className) (object \(n))")
    }
}

/// The memo behind `KeyedArchive.instance`'s class names (a class: the archive is a value).
final class ClassNames {
    var byIndex: [Int: [String]] = [:]
}

/// How much walking an archive may take, shared by every object of it. Past the limit the
/// archive is refused; every 4,096 units the walk also stops for Ctrl-C or `--timeout`.
final class WorkBudget {
    private var remaining: Int
    private var sinceCheck = 0
    private let limit: Int
    private let path: String

    init(limit: Int, path: String) {
        self.limit = limit
        self.remaining = limit
        self.path = path
    }

    func spend(_ units: Int) throws {
        remaining -= units
        guard remaining >= 0 else {
            throw ModelFileError(.brokenArchive, path: path, "its objects refer to each other so often that reading them takes more than \(limit) steps")
        }
        sinceCheck += units
        if sinceCheck >= 4096 {
            sinceCheck = 0
            try ModelFileError.stopIfAsked(path)
        }
    }
}

/// Reading numbers and booleans out of a parsed plist, where on Linux booleans arrive as
/// `Bool` and integers as `Int` or `NSNumber` (and `NSNumber` would also cast to `Bool`).
enum PlistValue {
    static func int(_ v: Any) -> Int? {
        if type(of: v) == Bool.self { return nil }
        if let n = v as? Int { return n }
        if let n = v as? NSNumber, !isFloating(n) { return n.intValue }
        return nil
    }

    static func double(_ v: Any) -> Double? {
        if type(of: v) == Bool.self { return nil }
        if let d = v as? Double { return d }
        if let n = v as? NSNumber { return n.doubleValue }
        return nil
    }

    static func bool(_ v: Any) -> Bool? {
        if let b = v as? Bool, type(of: v) == Bool.self { return b }
        if let n = int(v), n == 0 || n == 1 { return n == 1 }
        return nil
    }

    static func isBool(_ v: Any) -> Bool { type(of: v) == Bool.self }

    static func isFloating(_ n: NSNumber) -> Bool {
        let t = n.objCType.pointee
        return t == CChar(UInt8(ascii: "d")) || t == CChar(UInt8(ascii: "f"))
    }

    /// What a value is, for messages.
    static func kind(_ v: Any) -> String {
        if isBool(v) { return "a boolean" }
        if v is String { return "a string" }
        if int(v) != nil { return "an integer" }
        if double(v) != nil { return "a number" }
        if v is Data { return "data" }
        if v is [Any] { return "an array" }
        if KeyedArchive.uid(v) != nil { return "a UID" }
        if v is [String: Any] { return "a dictionary" }
        return String(describing: type(of: v))
    }
}
