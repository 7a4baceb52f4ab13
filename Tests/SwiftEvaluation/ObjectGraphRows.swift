import Foundation
import QuarryModel
import QuarryPredicates
import QuarryStore

/// A sample of a store's objects, and those they lead to, as the rows file the plain
/// classes read (`PlainSwiftClasses`): each object's attributes as text, and its
/// relationships as the ids of their objects. Objects up to `depth` steps from the sample
/// have their relationships loaded; those past it have none, and the program stops if a
/// predicate reads one, so the depth is never silently too small.
struct ObjectGraphRows {
    struct Failure: Error, CustomStringConvertible { let description: String }

    let context: ObjectContext
    /// Entity name to the name of its hierarchy's root: objects are ids by root and key,
    /// as a sub-entity's rows share their root's keys.
    private var roots: [String: String] = [:]
    private(set) var rows: [[String: Any]] = []
    private var seen: Set<String> = []

    init(context: ObjectContext) {
        self.context = context
        for entity in context.entities {
            var root = entity
            while let parent = root.parent, let p = context.entities.first(where: { $0.name == parent }) { root = p }
            roots[entity.name] = root.name
        }
    }

    func id(_ object: ManagedObject) throws -> String {
        guard let key = object.primaryKey else { throw Failure(description: "an unsaved \(object.entity.name) in the sample") }
        return (roots[object.entity.name] ?? object.entity.name) + ":" + String(key)
    }

    /// Adds `sample` and what it leads to within `depth` relationship steps.
    mutating func load(_ sample: [ManagedObject], depth: Int) throws {
        var queue: [(ManagedObject, Int)] = []
        for object in sample where seen.insert(try id(object)).inserted { queue.append((object, 0)) }
        var next = 0
        while next < queue.count {
            let (object, level) = queue[next]
            next += 1
            var row = try attributes(of: object)
            if level < depth {
                for relationship in object.entity.relationships where !object.entity.subentityKeys.contains(relationship.name) {
                    let related =
                        relationship.isToMany
                        ? try context.relatedObjects(relationship.name, of: object)
                        : try context.relatedObject(relationship.name, of: object).map { [$0] } ?? []
                    let ids = try related.map { try id($0) }
                    if relationship.isToMany {
                        row[relationship.name] = ids
                    } else if let target = ids.first {
                        row[relationship.name] = target
                    } else {
                        row[relationship.name] = NSNull()
                    }
                    for (target, targetID) in zip(related, ids) where seen.insert(targetID).inserted {
                        queue.append((target, level + 1))
                    }
                }
            }
            rows.append(row)
        }
    }

    /// The class, id and attributes of `object`, each as the text `Parse` reads.
    private func attributes(of object: ManagedObject) throws -> [String: Any] {
        let entity = object.entity
        var row: [String: Any] = ["_id": try id(object), "_class": entity.name]
        for attribute in entity.attributes where !entity.subentityKeys.contains(attribute.name) && PlainSwiftClasses.propertyType(attribute) != nil {
            let value = try object.value(forKey: attribute.name)
            if value.isNull {
                // Also for a required attribute: real stores hold such rows (Photos does);
                // the class stops the program only if a predicate reads one.
                row[attribute.name] = NSNull()
                continue
            }
            guard let text = Self.text(value, attribute.type) else {
                throw Failure(description: "\(try id(object)).\(attribute.name) holds \(value), not a \(attribute.type.rawValue)")
            }
            row[attribute.name] = text
        }
        return row
    }

    static func bits(_ d: Double) -> String { String(d.bitPattern) }

    /// `value` as the text `Parse` reads for `type`; nil when it is not of that type.
    static func text(_ value: Value, _ type: AttributeType) -> String? {
        switch (type, value) {
        case (.int16, .integer(let i)), (.int32, .integer(let i)), (.int64, .integer(let i)): return String(i)
        case (.double, .real(let d)), (.decimal, .real(let d)): return bits(d)
        case (.double, .integer(let i)), (.decimal, .integer(let i)): return bits(Double(i))
        // A SQLite store's decimal reads as the double's shortest text, which reads back
        // as that double.
        case (.decimal, .decimal(let s)): return Double(s).map(bits)
        case (.bool, .bool(let b)): return b ? "1" : "0"
        case (.bool, .integer(let i)) where i == 0 || i == 1: return String(i)
        // Quarry's dates are seconds since 1970; the app's Date counts from 2001, as Core
        // Data stores it: the same subtraction as the exporter's constants.
        case (.date, .date(let d)): return bits(d - referenceDateOffset)
        case (.uuid, .text(let s)): return UUID(uuidString: s)?.uuidString
        case (.uuid, .blob(let b)) where b.count == 16:
            return NSUUID(uuidBytes: b).uuidString
        case (.binary, .blob(let b)): return Data(b).base64EncodedString()
        case (.string, .text(let s)), (.json, .text(let s)): return s
        default: return nil
        }
    }
}
