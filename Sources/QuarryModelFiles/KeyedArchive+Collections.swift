/// The Foundation collections a compiled model archives: arrays and sets (`NS.objects`),
/// dictionaries (`NS.keys` + `NS.objects`), and Core Data's `NSKnownKeysDictionary1`
/// (`searchMapping.keys` + `values`, slots holding an empty token skipped). Each returns
/// bounds-checked UIDs, for the caller to decode as the type it expects.
import Foundation

extension ArchivedObject {
    /// The elements of an `NSArray`, `NSSet` or `NSOrderedSet` (mutable or not).
    package func elements() throws -> [Int] {
        guard fields["NS.objects"] != nil else {
            throw archive.broken("\(className) (object \(index)): expected an array or set")
        }
        return try uids("NS.objects")
    }

    /// The entries of a dictionary, in archived order, with string keys.
    package func entries() throws -> [(key: String, value: Int)] {
        if fields["searchMapping"] != nil {
            return try knownKeysEntries()
        }
        guard fields["NS.keys"] != nil || fields["NS.objects"] != nil else {
            throw archive.broken("\(className) (object \(index)): expected a dictionary")
        }
        let keys = try uids("NS.keys")
        let values = try uids("NS.objects")
        guard keys.count == values.count else {
            throw archive.broken("\(className) (object \(index)): \(keys.count) keys for \(values.count) values")
        }
        return try zip(keys, values).map { k, v in
            guard let key = try archive.string(at: k, context: "\(className) (object \(index)) key") else {
                throw archive.broken("\(className) (object \(index)): a key is $null")
            }
            return (key, v)
        }
    }

    private func knownKeysEntries() throws -> [(key: String, value: Int)] {
        guard let mapping = try object("searchMapping"), let keyList = try mapping.object("keys"), let valueList = try object("values") else {
            throw archive.broken("\(className) (object \(index)): missing keys or values")
        }
        let keys = try keyList.elements()
        let values = try valueList.elements()
        guard keys.count == values.count else {
            throw archive.broken("\(className) (object \(index)): \(keys.count) keys for \(values.count) values")
        }
        let empty = try string("emptyToken")
        var result: [(key: String, value: Int)] = []
        for (k, v) in zip(keys, values) {
            if let empty, archive.objects[v].string == empty { continue }
            guard let key = try archive.string(at: k, context: "\(className) (object \(index)) key") else {
                throw archive.broken("\(className) (object \(index)): a key is $null")
            }
            result.append((key, v))
        }
        return result
    }

    /// The dictionary under `key` (absent or `$null`: empty).
    package func entries(_ key: String) throws -> [(key: String, value: Int)] {
        try object(key)?.entries() ?? []
    }

    /// The array or set under `key` (absent or `$null`: empty).
    package func elements(_ key: String) throws -> [Int] {
        try object(key)?.elements() ?? []
    }

    /// The strings of the array or set under `key`.
    package func strings(_ key: String) throws -> [String] {
        try elements(key).map { n in
            guard let s = try archive.string(at: n, context: "\(className) (object \(index)) key \(key)") else {
                throw archive.broken("\(className) (object \(index)) key \(key): an element is $null")
            }
            return s
        }
    }
}
