/// Reading a property list file's top value, binary or XML, after the checks every one
/// passes first (`BinaryPlistCheck`): binary ones by `BinaryPropertyList`, plain Swift
/// values; XML ones by Foundation (they cannot share objects, and no store holds one).
import Foundation

enum PropertyListValue {
    static func read(_ data: Data, path: String) throws -> Any {
        try BinaryPlistCheck.check(data, path: path)
        if BinaryPropertyList.isBinary(data) { return try BinaryPropertyList.read(data, path: path) }
        do {
            return try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw ModelFileError(.malformedPlist, path: path, "not a property list (\(data.count) bytes)")
        }
    }
}
