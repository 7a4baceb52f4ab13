import QuarryModel
/// One entity as a SwiftData `@Model` class: typed stored properties (optional where the
/// model says so, with their defaults), `@Attribute(.unique)` for a one-attribute
/// uniqueness constraint and `#Unique` for the others, `#Index` for indexed attributes
/// and fetch indexes, `@Relationship(deleteRule:inverse:)`, arrays for to-many, and an
/// `init` taking every required property that has no default.
///
/// SwiftData wants an inverse declared on one side only (both sides make a circular macro
/// expansion): the to-many side of a one-to-many, else the side whose entity and name
/// sort first. Class inheritance is SwiftData's since iOS 26, so every class of a model
/// with a hierarchy says so; a class with subclasses is not `final`.
struct SwiftDataClass {
    package let model: CoreDataModel
    package let entity: CoreDataEntity
    package let names: SwiftNames

    private var name: String { names.type(of: entity.name) }

    package var source: String {
        var lines: [String] = []
        if entity.isAbstract { lines.append("// Abstract in the model: SwiftData has no abstract classes, so insert only its subclasses.") }
        let hasSubclasses = !model.subentities(of: entity.name).isEmpty
        // Every class of a model with a hierarchy says so, not only the hierarchy's: the
        // others refer to its classes (`\Car.owner`) and share one schema with them.
        if model.entities.contains(where: { $0.parent != nil }) { lines.append("@available(iOS 26, macOS 26, *)") }
        lines.append("@Model")
        let superclass = entity.parent.map { ": " + names.type(of: $0) } ?? ""
        lines.append("\(hasSubclasses ? "" : "final ")class \(name)\(superclass) {")
        var body = macros()
        if !body.isEmpty { body.append("") }
        // A composite's Codable type, nested so that each entity's are its own.
        for attribute in entity.attributes where attribute.type == .composite {
            let declaration = composite(attribute).declaration
            if !declaration.isEmpty { body += declaration + [""] }
        }
        body += entity.attributes.map(attributeLine)
        body += entity.relationships.map(relationshipLine)
        body.append("")
        body += initializer()
        lines += body.map { $0.isEmpty ? "" : "    " + $0 }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// `#Unique` for constraints `@Attribute(.unique)` does not say, `#Index` for indexes.
    private func macros() -> [String] {
        func keyPaths(_ keys: [String]) -> String { "[" + keys.map { "\\." + names.property($0, of: entity.name) }.joined(separator: ", ") + "]" }
        var lines: [String] = []
        let compound = entity.uniquenessConstraints.filter { !isUniqueAttribute($0) }
        if !compound.isEmpty { lines.append("#Unique<\(name)>(\(compound.map(keyPaths).joined(separator: ", ")))") }
        // SwiftData indexes no to-many (an array of models): a fetch index over one is left out.
        let toMany = Set(entity.relationships.filter(\.isToMany).map(\.name))
        let indexes =
            entity.attributes.filter(\.isIndexed).map { [$0.name] }
            + entity.fetchIndexes.map(\.properties).filter { !$0.isEmpty && !$0.contains(where: toMany.contains) }
        if !indexes.isEmpty { lines.append("#Index<\(name)>(\(indexes.map(keyPaths).joined(separator: ", ")))") }
        return lines
    }

    /// A one-name constraint on an attribute this entity declares: said by `@Attribute(.unique)`.
    private func isUniqueAttribute(_ constraint: [String]) -> Bool {
        constraint.count == 1 && entity.attribute(named: constraint[0]) != nil
    }

    static func swiftType(_ type: CoreDataAttributeType) -> String? {
        switch type {
        case .integer16: return "Int16"
        case .integer32: return "Int32"
        case .integer64: return "Int64"
        case .decimal: return "Decimal"
        case .double: return "Double"
        case .float: return "Float"
        case .string: return "String"
        case .boolean: return "Bool"
        case .date: return "Date"
        case .binary: return "Data"
        case .uuid: return "UUID"
        case .uri: return "URL"
        // SwiftData stores a transformable value through its transformer, as an object.
        case .transformable: return "NSObject"
        case .undefined, .objectID, .composite: return nil
        }
    }

    /// Required in `init`: stored, not optional, no default.
    static func isRequired(_ attribute: CoreDataAttribute) -> Bool {
        !attribute.isTransient && !attribute.isOptional && (swiftType(attribute.type) != nil || attribute.type == .composite)
            && SwiftModelSource.defaultExpression(attribute) == nil
    }

    /// A composite of this model, its type named clear of the model's classes.
    private func composite(_ attribute: CoreDataAttribute) -> SwiftDataComposite {
        SwiftDataComposite(attribute: attribute, taken: Set(model.entities.map(SwiftModelSource.typeName)))
    }

    /// The Swift type of an attribute's property (without `?`).
    private func propertyType(_ attribute: CoreDataAttribute) -> String? {
        attribute.type == .composite ? composite(attribute).typeName : Self.swiftType(attribute.type)
    }

    private func attributeLine(_ attribute: CoreDataAttribute) -> String {
        if attribute.type == .composite, !attribute.isTransient { return composite(attribute).propertyLine }
        let property = names.property(attribute.name, of: entity.name)
        guard let type = Self.swiftType(attribute.type) else {
            return "// \(property): \(attribute.type.rawValue) has no SwiftData type"
        }
        var options: [String] = []
        if entity.uniquenessConstraints.contains([attribute.name]) { options.append(".unique") }
        if attribute.allowsExternalBinaryDataStorage { options.append(".externalStorage") }
        if attribute.type == .transformable {
            options.append(".transformable(by: \(SwiftModelSource.stringLiteral(attribute.valueTransformerName ?? "NSSecureUnarchiveFromData")))")
        }
        // The store's name, where the property is spelled otherwise.
        if let original = names.original(attribute.name, of: entity.name) {
            options.append("originalName: " + SwiftModelSource.stringLiteral(original))
        }
        var wrapper = options.isEmpty ? "" : "@Attribute(\(options.joined(separator: ", "))) "
        // A transient property needs a value from the start, so without a default it is optional.
        let optional =
            attribute.isOptional || attribute.type == .transformable
            || (attribute.isTransient && SwiftModelSource.defaultExpression(attribute) == nil)
        if attribute.isTransient { wrapper = "@Transient " }
        var line = "\(wrapper)var \(property): \(type)\(optional ? "?" : "")"
        if let value = SwiftModelSource.defaultExpression(attribute) {
            line += " = \(value)"
        } else if optional, !wrapper.isEmpty {
            line += " = nil"
        }
        return line
    }

    private func relationshipLine(_ relationship: CoreDataRelationship) -> String {
        let destination = names.type(of: relationship.destination)
        var arguments: [String] = []
        switch relationship.deleteRule {
        case .nullify: break
        case .cascade: arguments.append("deleteRule: .cascade")
        case .deny: arguments.append("deleteRule: .deny")
        case .noAction: arguments.append("deleteRule: .noAction")
        }
        if relationship.isToMany, relationship.minCount > 0 { arguments.append("minimumModelCount: \(relationship.minCount)") }
        if relationship.isToMany, relationship.maxCount > 0 { arguments.append("maximumModelCount: \(relationship.maxCount)") }
        if let original = names.original(relationship.name, of: entity.name) {
            arguments.append("originalName: " + SwiftModelSource.stringLiteral(original))
        }
        if let inverse = relationship.inverse, declaresInverse(relationship) {
            arguments.append("inverse: \\\(destination).\(names.property(inverse, of: relationship.destination))")
        }
        let wrapper = arguments.isEmpty ? "" : "@Relationship(\(arguments.joined(separator: ", "))) "
        let property = names.property(relationship.name, of: entity.name)
        var line =
            relationship.isToMany
            ? "\(wrapper)var \(property): [\(destination)] = []"
            : "\(wrapper)var \(property): \(destination)?\(wrapper.isEmpty ? "" : " = nil")"
        if relationship.isOrdered { line += "  // ordered in the model: a SwiftData array keeps no order" }
        return line
    }

    /// Whether this side of a pair carries `inverse:` (see the type's comment).
    private func declaresInverse(_ relationship: CoreDataRelationship) -> Bool {
        guard let inverseName = relationship.inverse,
            let inverse = model.allRelationships(of: relationship.destination).first(where: { $0.name == inverseName })
        else { return true }
        if relationship.isToMany != inverse.isToMany { return relationship.isToMany }
        return (entity.name, relationship.name) <= (relationship.destination, inverseName)
    }

    private func initializer() -> [String] {
        let inherited = model.ancestors(of: entity.name).reversed().flatMap(\.attributes).filter(Self.isRequired)
        let own = entity.attributes.filter(Self.isRequired)
        func parameters(_ attributes: [CoreDataAttribute]) -> [String] {
            attributes.compactMap { a in propertyType(a).map { "\(names.property(a.name, of: entity.name)): \($0)" } }
        }
        let overriding = entity.parent != nil && own.isEmpty
        var lines = ["\(overriding ? "override " : "")init(\(parameters(inherited + own).joined(separator: ", "))) {"]
        for attribute in own {
            let property = names.property(attribute.name, of: entity.name)
            lines.append("    self.\(property) = \(property)")
        }
        if entity.parent != nil {
            let arguments = inherited.map { names.property($0.name, of: entity.name) }.map { "\($0): \($0)" }
            lines.append("    super.init(\(arguments.joined(separator: ", ")))")
        }
        lines.append("}")
        return lines
    }
}
