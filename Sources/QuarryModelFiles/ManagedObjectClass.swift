import QuarryModel
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
    package let model: CoreDataModel
    package let entity: CoreDataEntity
    package let names: SwiftNames

    private var name: String { names.type(of: entity.name) }

    package var source: String {
        let superclass = entity.parent.map { names.type(of: $0) } ?? "NSManagedObject"
        var lines = ["@objc(\(name))", "public class \(name): \(superclass) {", "", "}", "", "extension \(name) {", ""]
        lines += [
            "    @nonobjc public class func fetchRequest() -> NSFetchRequest<\(name)> {",
            "        return NSFetchRequest<\(name)>(entityName: \(SwiftModelSource.stringLiteral(entity.name)))",
            "    }", ""
        ]
        for attribute in entity.attributes {
            let property = names.property(attribute.name, of: entity.name)
            if let type = Self.swiftType(attribute) {
                lines += managed(attribute.name, property, type, objectType: Self.objectType(attribute))
            } else {
                lines.append("    // \(property): \(attribute.type.rawValue) has no Swift type")
            }
        }
        for relationship in entity.relationships {
            let type =
                relationship.isToMany
                ? (relationship.isOrdered ? "NSOrderedSet" : "NSSet")
                : names.type(of: relationship.destination)
            lines += managed(relationship.name, names.property(relationship.name, of: entity.name), type + "?", objectType: type + "?")
        }
        lines += ["", "}"]
        // Accessors are Objective-C methods named after the relationship: only for a name
        // that can be one (KVC's mutableSetValue(forKey:) reaches the others).
        for relationship in entity.relationships where relationship.isToMany && Self.isObjCName(relationship.name) {
            lines += accessors(relationship)
        }
        if entity.parent == nil { lines += ["", "extension \(name) : Identifiable {", "", "}"] }
        return lines.joined(separator: "\n")
    }

    /// An `@NSManaged` property; one spelled otherwise than the model's name says that
    /// name to Objective-C (`@objc(name)`), and a name Objective-C cannot spell (`first
    /// name`) is reached through KVC, as `value(forKey:)` finds any property of the entity,
    /// with its object type (a scalar is an `NSNumber?` there).
    private func managed(_ name: String, _ property: String, _ type: String, objectType: String) -> [String] {
        guard names.original(name, of: entity.name) != nil else { return ["    @NSManaged public var \(property): \(type)"] }
        if Self.isObjCName(name) { return ["    @objc(\(name))", "    @NSManaged public var \(property): \(type)"] }
        let key = SwiftModelSource.stringLiteral(name)
        let cast = objectType.hasSuffix("?") ? String(objectType.dropLast()) : objectType
        return [
            "    public var \(property): \(objectType) {",
            "        get { value(forKey: \(key)) as? \(cast) }",
            "        set { setValue(newValue, forKey: \(key)) }",
            "    }"
        ]
    }

    /// Whether Objective-C can name a method or property `name`: ASCII letters, digits
    /// and `_`, not starting with a digit.
    static func isObjCName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// The type a KVC property has: the attribute's object type (`NSNumber?` for scalars).
    static func objectType(_ attribute: CoreDataAttribute) -> String {
        let type = swiftType(attribute) ?? "NSObject?"
        return type.hasSuffix("?") ? type : "NSNumber?"
    }

    package static func swiftType(_ attribute: CoreDataAttribute) -> String? {
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
        let element = names.type(of: relationship.destination)
        let collection = relationship.isOrdered ? "NSOrderedSet" : "NSSet"
        var methods: [(String, String)] = []
        if relationship.isOrdered {
            methods += [
                ("insertObject:in\(key)AtIndex:", "insertInto\(key)(_ value: \(element), at idx: Int)"),
                ("removeObjectFrom\(key)AtIndex:", "removeFrom\(key)(at idx: Int)")
            ]
        }
        methods += [
            ("add\(key)Object:", "addTo\(key)(_ value: \(element))"),
            ("remove\(key)Object:", "removeFrom\(key)(_ value: \(element))"),
            ("add\(key):", "addTo\(key)(_ values: \(collection))"),
            ("remove\(key):", "removeFrom\(key)(_ values: \(collection))")
        ]
        var lines = ["", "// MARK: Generated accessors for \(relationship.name)", "extension \(name) {", ""]
        for (selector, signature) in methods {
            lines += ["    @objc(\(selector))", "    @NSManaged public func \(signature)", ""]
        }
        lines.append("}")
        return lines
    }
}
