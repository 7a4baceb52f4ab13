import Foundation
/// Reading a property list file's top value, binary or XML, after the checks every one
/// passes first (`BinaryPlistCheck`): binary ones by `BinaryPropertyList`; XML ones by
/// Foundation (they cannot share objects, and no store holds one), its values then typed.
import QuarryModel

package enum PropertyListValue {
    package static func read(_ data: Data, path: String) throws -> Plist {
        try BinaryPlistCheck.check(data, path: path)
        if BinaryPropertyList.isBinary(data) { return try BinaryPropertyList.read(data, path: path) }
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ModelFileError(.malformedPlist, path: path, "not a property list (\(data.count) bytes)")
        }
        guard let typed = typed(value) else {
            throw ModelFileError(.malformedPlist, path: path, "holds a value Quarry does not read (\(type(of: value)))")
        }
        return typed
    }

    /// A value of Foundation's as a `Plist`; nil for a type no property list holds.
    package static func typed(_ value: Any) -> Plist? {
        if let n = PlistValue.uid(value) { return .uid(n) }
        if PlistValue.isBool(value), let b = value as? Bool { return .bool(b) }
        if let s = value as? String { return .string(s) }
        if let n = PlistValue.int(value) { return .integer(n) }
        if let d = PlistValue.double(value) { return .real(d) }
        if let d = value as? Data { return .data(d) }
        if let d = value as? Date { return .date(d) }
        if let list = value as? [Any] {
            var items: [Plist] = []
            items.reserveCapacity(list.count)
            for item in list {
                guard let typed = typed(item) else { return nil }
                items.append(typed)
            }
            return .array(items)
        }
        if let dictionary = value as? [String: Any] {
            var keys: [String] = []
            var values: [Plist] = []
            keys.reserveCapacity(dictionary.count)
            values.reserveCapacity(dictionary.count)
            for (key, item) in dictionary {
                guard let typed = typed(item) else { return nil }
                keys.append(key)
                values.append(typed)
            }
            return .dictionary(PlistDictionary(keys: keys, values: values))
        }
        return nil
    }
}

/// Reading numbers, booleans and UIDs out of Foundation's property list values, where on
/// Linux booleans arrive as `Bool`, integers as `Int` or `NSNumber` (and `NSNumber` would
/// also cast to `Bool`), and UIDs as instances of the internal class `_NSKeyedArchiverUID`,
/// whose number only reflection reaches (a stored `value: UInt32`).
package enum PlistValue {
    package static func int(_ v: Any) -> Int? {
        if type(of: v) == Bool.self { return nil }
        if let n = v as? Int { return n }
        if let n = v as? NSNumber, !isFloating(n) { return n.intValue }
        return nil
    }

    package static func double(_ v: Any) -> Double? {
        if type(of: v) == Bool.self { return nil }
        if let d = v as? Double { return d }
        if let n = v as? NSNumber { return n.doubleValue }
        return nil
    }

    package static func isBool(_ v: Any) -> Bool { type(of: v) == Bool.self }

    static func isFloating(_ n: NSNumber) -> Bool {
        let t = n.objCType.pointee
        return t == CChar(UInt8(ascii: "d")) || t == CChar(UInt8(ascii: "f"))
    }

    /// The number of a UID Foundation read (`_NSKeyedArchiverUID`); nil for anything else.
    package static func uid(_ value: Any) -> Int? {
        guard value is NSObject, String(describing: type(of: value)) == "_NSKeyedArchiverUID" else { return nil }
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let n = child.value as? UInt32 { return Int(n) }
            if let n = child.value as? UInt64, n <= UInt64(Int.max) { return Int(n) }
            if let n = child.value as? Int { return n }
        }
        return nil
    }
}
