/// One entity as the `NSManagedObject` subclass Xcode's code generation writes (its
/// `+CoreDataClass` and `+CoreDataProperties` files in one): `@objc(Name)`, a
/// `fetchRequest()`, `@NSManaged` properties, the generated accessors of to-many
/// relationships, and `Identifiable` on the root class (a subclass inherits it).
///
/// Types as Xcode gives them: a required number or boolean is a Swift scalar; an optional
/// one is `NSNumber?` (a scalar cannot be nil); every object type is optional whatever
/// the model says, since a new object's properties are nil until set and Core Data
/// checks required ones only when saving.
struct ManagedObjectClass {
    let model: CoreDataModel
    let entity: CoreDataEntity

    private var name: String { SwiftModelSource.className(entity) }

    var source: String {
        let superclass = entity.parent.map { SwiftModelSource.className(of: $0, in: model) } ?? "NSManagedObject"
        var lines = ["@objc(\(name))", "public class \(name): \(superclass) {", "", "}", "", "extension \(name) {", ""]
        lines += [
            "    @nonobjc public class func fetchRequest() -> NSFetchRequest<\(name)> {",
            "        return NSFetchRequest<\(name)>(entityName: \(SwiftModelSource.stringLiteral(entity.name)))",
            "    }", "",
        ]
        for attribute in entity.attributes {
            let property = SwiftModelSource.identifier(attribute.name)
            if let type = Self.swiftType(attribute) {
                lines.append("    @NSManaged public var \(property): \(type)")
            } else {
                lines.append("    // \(property): \(attribute.type.rawValue) has no Swift type")
            }
        }
        for relationship in entity.relationships {
            let type = relationship.isToMany ? (relationship.isOrdered ? "NSOrderedSet" : "NSSet")
                                             : SwiftModelSource.className(of: relationship.destination, in: model)
            lines.append("    @NSManaged public var \(SwiftModelSource.identifier(relationship.name)): \(type)?")
        }
        lines += ["", "}"]
        for relationship in entity.relationships where relationship.isToMany { lines += accessors(relationship) }
        if entity.parent == nil { lines += ["", "extension \(name) : Identifiable {", "", "}"] }
        return lines.joined(separator: "\n")
    }

    static func swiftType(_ attribute: CoreDataAttribute) -> String? {
        // The scalars are SwiftData's types for the same attributes.
        let scalars: [CoreDataAttributeType] = [.integer16, .integer32, .integer64, .double, .float, .boolean]
        if scalars.contains(attribute.type), let scalar = SwiftDataClass.swiftType(attribute.type) {
            return attribute.isOptional ? "NSNumber?" : scalar
        }
        switch attribute.type {
        case .decimal: return "NSDecimalNumber?"
        case .string: return "String?"
        case .date: return "Date?"
        case .binary: return "Data?"
        case .uuid: return "UUID?"
        case .uri: return "URL?"
        case .transformable: return "NSObject?"
        // Core Data gives a composite's value as a dictionary of its elements by name
        // (`NSAttributeValueClassName` `NSDictionary` in a real SwiftData store's model).
        case .composite: return "NSDictionary?"
        default: return nil
        }
    }

    /// Xcode's "Generated accessors" for a to-many relationship (KVC's mutable-set and,
    /// for an ordered one, mutable-array methods, which Core Data implements at run time).
    private func accessors(_ relationship: CoreDataRelationship) -> [String] {
        let key = relationship.name.prefix(1).uppercased() + relationship.name.dropFirst()
        let element = SwiftModelSource.className(of: relationship.destination, in: model)
        let collection = relationship.isOrdered ? "NSOrderedSet" : "NSSet"
        var methods: [(String, String)] = []
        if relationship.isOrdered {
            methods += [("insertObject:in\(key)AtIndex:", "insertInto\(key)(_ value: \(element), at idx: Int)"),
                        ("removeObjectFrom\(key)AtIndex:", "removeFrom\(key)(at idx: Int)")]
        }
        methods += [("add\(key)Object:", "addTo\(key)(_ value: \(element))"),
                    ("remove\(key)Object:", "removeFrom\(key)(_ value: \(element))"),
                    ("add\(key):", "addTo\(key)(_ values: \(collection))"),
                    ("remove\(key):", "removeFrom\(key)(_ values: \(collection))")]
        var lines = ["", "// MARK: Generated accessors for \(relationship.name)", "extension \(name) {", ""]
        for (selector, signature) in methods {
            lines += ["    @objc(\(selector))", "    @NSManaged public func \(signature)", ""]
        }
        lines.append("}")
        return lines
    }
}
