import Foundation
/// A reader for `NSKeyedArchiver` property lists, written because Foundation on Linux has
/// no Core Data classes for `NSKeyedUnarchiver` to instantiate. The plist is parsed into
/// typed values (`PropertyListValue`); the object table (`$objects`) is then walked by
/// hand, every reference (UID) bounds-checked and every value type-checked, so a broken
/// archive is a `ModelFileError`, never a trap. A UID is `.uid`, or `{"CF$UID": n}` in an
/// XML list that was re-encoded (`Plist.uid`).
///
/// Sharing: a binary plist whose objects would expand far past its size is refused before
/// Foundation parses it (`BinaryPlistCheck`); and objects may name each other by UID many
/// times over (a uniqueness constraint's array named by 10^6 entities, a subpredicate
/// shared at each of 8 levels), so every step of the walk spends from `work`, a budget
/// proportional to the archive's size that a real model never exhausts.
import QuarryModel

/// A class: every `ArchivedObject` of a walk refers to it (one reference to count, where a
/// struct's fields were each retained and released at every step).
final class KeyedArchive {
    package let objects: [Plist]
    package let path: String
    package let root: Int
    package let work: WorkBudget
    /// Each class's names (`$classes`) by the index of its class object, read once: every
    /// instance of a class names the same one (1,154 attributes in Photos.app's model).
    private var classNames: [Int: [String]] = [:]

    package init(data: Data, path: String) throws {
        self.path = path
        work = WorkBudget(limit: 16 * data.count + (1 << 20), path: path)
        let plist = try PropertyListValue.read(data, path: path)
        guard let top = plist.dictionary else { throw ModelFileError(.malformedPlist, path: path, "the top level is not a dictionary") }
        guard top["$archiver"]?.string == "NSKeyedArchiver" else {
            throw ModelFileError(.brokenArchive, path: path, "not an NSKeyedArchiver archive (no $archiver)")
        }
        guard let objects = top["$objects"]?.array else { throw ModelFileError(.brokenArchive, path: path, "no $objects array") }
        self.objects = objects
        guard let roots = top["$top"]?.dictionary, let rootRef = roots["root"] else {
            throw ModelFileError(.brokenArchive, path: path, "no $top.root")
        }
        guard let root = rootRef.uid else { throw ModelFileError(.brokenArchive, path: path, "$top.root is not a UID") }
        guard root > 0, root < objects.count else {
            throw ModelFileError(.brokenArchive, path: path, "$top.root UID \(root) is out of range (\(objects.count) objects)")
        }
        self.root = root
    }

    package func broken(_ detail: String) -> ModelFileError { ModelFileError(.brokenArchive, path: path, detail) }

    /// Counts `units` of work (objects visited, UIDs listed, characters rendered).
    func spend(_ units: Int) throws { try work.spend(units) }

    /// The object a UID names; nil for `$null` (UID 0).
    func resolve(_ ref: Plist, key: String, in owner: Int) throws -> Plist? {
        guard let n = ref.uid else { throw broken("object \(owner) key \(key): expected a UID, got \(ref.kind)") }
        guard n >= 0, n < objects.count else { throw broken("object \(owner) key \(key): UID \(n) is out of range (\(objects.count) objects)") }
        if n == 0 { return nil }
        if objects[n] == .string("$null") { return nil }
        return objects[n]
    }

    /// The object at index `n` as a class instance (a dictionary with `$class`).
    package func instance(_ n: Int) throws -> ArchivedObject {
        try spend(1)
        guard n > 0, n < objects.count else { throw broken("UID \(n) is out of range (\(objects.count) objects)") }
        guard let fields = objects[n].dictionary else { throw broken("object \(n) is \(objects[n].kind), not an instance") }
        guard let c = fields["$class"]?.uid, c > 0, c < objects.count,
            let classInfo = objects[c].dictionary, let className = classInfo["$classname"]?.string
        else {
            throw broken("object \(n) has no valid $class")
        }
        let classes: [String]
        if let known = classNames[c] {
            classes = known
        } else {
            classes = classInfo["$classes"]?.array?.compactMap(\.string) ?? [className]
            classNames[c] = classes
        }
        return ArchivedObject(archive: self, index: n, fields: fields, className: className, classes: classes)
    }

    var rootObject: ArchivedObject { get throws { try instance(root) } }
}

/// One archived instance: its class and fields, with typed accessors that check every value.
struct ArchivedObject {
    package let archive: KeyedArchive
    package let index: Int
    package let fields: PlistDictionary
    package let className: String
    /// The class and its superclasses, as archived (`$classes`).
    package let classes: [String]

    package func isKind(of name: String) -> Bool { classes.contains(name) }

    private func broken(_ key: String, _ what: String) -> ModelFileError {
        archive.broken("\(className) (object \(index)) key \(key): \(what)")
    }

    /// An inline integer; nil when absent.
    package func int(_ key: String) throws -> Int? {
        guard let v = fields[key] else { return nil }
        guard let n = v.int else { throw broken(key, "expected an integer, got \(v.kind)") }
        return n
    }

    /// An inline boolean; absent is false (Core Data leaves out false flags).
    package func bool(_ key: String) throws -> Bool {
        guard let v = fields[key] else { return false }
        guard let b = v.bool else { throw broken(key, "expected a boolean, got \(v.kind)") }
        return b
    }

    /// The referenced object, raw (a string, number, data or instance dictionary); nil for absent or `$null`.
    func referenced(_ key: String) throws -> Plist? {
        guard let ref = fields[key] else { return nil }
        return try archive.resolve(ref, key: key, in: index)
    }

    /// A referenced string: a plain string, or an `NSString`/`NSMutableString` instance.
    package func string(_ key: String) throws -> String? {
        guard let ref = fields[key] else { return nil }
        if case .string(let s) = ref { return s }
        guard let n = ref.uid else { throw broken(key, "expected a string, got \(ref.kind)") }
        return try archive.string(at: n, context: "\(className) (object \(index)) key \(key)")
    }

    /// A referenced instance; nil for absent or `$null`.
    package func object(_ key: String) throws -> ArchivedObject? {
        guard let ref = fields[key] else { return nil }
        guard let n = ref.uid else { throw broken(key, "expected a UID, got \(ref.kind)") }
        guard n >= 0, n < archive.objects.count else { throw broken(key, "UID \(n) is out of range (\(archive.objects.count) objects)") }
        if n == 0 { return nil }
        return try archive.instance(n)
    }

    /// The UIDs listed under `key` (as in `NS.objects`), bounds-checked.
    package func uids(_ key: String) throws -> [Int] {
        guard let v = fields[key] else { return [] }
        guard let list = v.array else { throw broken(key, "expected an array, got \(v.kind)") }
        try archive.spend(list.count)
        return try list.map { item in
            guard let n = item.uid else { throw broken(key, "expected UIDs, got \(item.kind)") }
            guard n > 0, n < archive.objects.count else { throw broken(key, "UID \(n) is out of range (\(archive.objects.count) objects)") }
            return n
        }
    }
}

extension KeyedArchive {
    /// The string at UID `n`: inline, or an `NSString`-like instance with `NS.string`.
    /// `context` is made only for an error: reading a model asks for thousands of strings.
    package func string(at n: Int, context: @autoclosure () -> String) throws -> String? {
        try spend(1)
        guard n >= 0, n < objects.count else { throw broken("\(context()): UID \(n) is out of range (\(objects.count) objects)") }
        if n == 0 { return nil }
        if case .string(let s) = objects[n] { return s }
        let object = try instance(n)
        if let s = object.fields["NS.string"]?.string { return s }
        if let bytes = object.fields["NS.bytes"]?.data, let s = String(data: bytes, encoding: .utf8) { return s }
        throw broken("\(context()): expected a string, got \(object.className) (object \(n))")
    }
}

/// How much walking an archive may take, shared by every object of it. Past the limit the
/// archive is refused; every 4,096 units the walk also stops for Ctrl-C or `--timeout`.
final class WorkBudget {
    private var remaining: Int
    private var sinceCheck = 0
    private let limit: Int
    private let path: String

    package init(limit: Int, path: String) {
        self.limit = limit
        self.remaining = limit
        self.path = path
    }

    func spend(_ units: Int) throws {
        remaining -= units
        guard remaining >= 0 else {
            throw ModelFileError(
                .brokenArchive, path: path, "its objects refer to each other so often that reading them takes more than \(limit) steps")
        }
        sinceCheck += units
        if sinceCheck >= 4096 {
            sinceCheck = 0
            try ModelFileError.stopIfAsked(path)
        }
    }
}
