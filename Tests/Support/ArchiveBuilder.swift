import Foundation

/// Builds keyed archives as Core Data lays them out, with `{"CF$UID": n}` references.
public struct ArchiveBuilder {
    public var objects: [Any] = ["$null"]
    public var classes: [String: [String: Int]] = [:]

    public init() {}

    public static func uid(_ n: Int) -> [String: Int] { ["CF$UID": n] }

    /// Appends `value` and returns its UID reference.
    public mutating func add(_ value: Any) -> [String: Int] {
        objects.append(value)
        return Self.uid(objects.count - 1)
    }

    public mutating func add(_ className: String, _ fields: [String: Any], superclasses: [String] = ["NSObject"]) -> [String: Int] {
        let classRef = classes[className] ?? add(["$classname": className, "$classes": [className] + superclasses])
        classes[className] = classRef
        var fields = fields
        fields["$class"] = classRef
        return add(fields)
    }

    public mutating func array(_ items: [[String: Int]]) -> [String: Int] { add("NSArray", ["NS.objects": items]) }

    public mutating func dictionary(_ entries: [(String, [String: Int])]) -> [String: Int] {
        let keys = entries.map { add($0.0) }
        return add("NSDictionary", ["NS.keys": keys, "NS.objects": entries.map(\.1)])
    }

    public func data(root: [String: Int]) throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: [
                "$version": 100000, "$archiver": "NSKeyedArchiver", "$top": ["root": root], "$objects": objects
            ], format: .binary, options: 0)
    }
}
