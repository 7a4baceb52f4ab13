import QuarryModel

/// A composite attribute as the Swift SwiftData made it from: a `Codable` struct of its
/// elements, or an enum. The type is nested in the model's class (`Cocktail.Author`), so
/// two entities' `author`s are two types, and named after the property with a capital
/// (`author`: `Author`), unless that would hide a class of the model (`\Item.owner` inside
/// `Item` must still name the class), or a name Swift gives a meaning to.
///
/// What the model says and what it does not: SwiftData archives every element optional,
/// so each is written optional. An enum with a raw value keeps one element, named like the
/// property, holding the raw value: its cases are in the app, not the model, so the
/// property is written as its raw type with a comment. An enum without one keeps an
/// element per case, holding the case's name when the value is that case (a real store's
/// `HistoricSpec`): written as an enum of those cases.
struct SwiftDataComposite {
    package let attribute: CoreDataAttribute
    /// Names the composite's type must not take (the model's class names).
    package let taken: Set<String>

    /// A raw-value enum: written as its raw type.
    var rawValueElement: CoreDataAttribute? {
        guard attribute.isEnum, attribute.elements.count == 1, let only = attribute.elements.first,
            only.name == attribute.name, only.type != .composite
        else { return nil }
        return only
    }

    /// The Swift type of the property (without `?`).
    package var typeName: String {
        if let raw = rawValueElement { return SwiftDataClass.swiftType(raw.type) ?? "String" }
        return Self.typeName(for: attribute.name, avoiding: taken)
    }

    package static func typeName(for property: String, avoiding taken: Set<String>) -> String {
        let plain = property.first.map { String($0).uppercased() + property.dropFirst() } ?? "Value"
        let reserved: Set<String> = [
            "Self", "Type", "Any", "Protocol", "Optional", "String", "Int", "Data", "Date", "UUID", "URL", "Decimal", "Double", "Bool"
        ]
        let name = taken.contains(plain) || reserved.contains(plain) ? plain + "Value" : plain
        return SwiftModelSource.identifier(name)
    }

    /// The declaration lines of the type (none for a raw-value enum), unindented.
    package var declaration: [String] {
        guard rawValueElement == nil else { return [] }
        let name = typeName
        var lines: [String]
        if attribute.isEnum {
            lines = ["enum \(name): Codable {"]
            for element in attribute.elements {
                let c = SwiftModelSource.identifier(element.name)
                if element.type == .string {
                    lines.append("    case \(c)")
                } else if element.type == .composite {
                    let nested = SwiftDataComposite(attribute: element, taken: taken.union([name]))
                    lines += nested.declaration.map { "    " + $0 }
                    lines.append("    case \(c)(\(nested.typeName))")
                } else {
                    lines.append("    case \(c)(\(SwiftDataClass.swiftType(element.type) ?? "Data"))")
                }
            }
        } else {
            lines = ["struct \(name): Codable {"]
            for element in attribute.elements {
                let property = SwiftModelSource.identifier(element.name)
                if element.type == .composite {
                    let nested = SwiftDataComposite(attribute: element, taken: taken.union([name]))
                    lines += nested.declaration.map { "    " + $0 }
                    lines.append("    var \(property): \(nested.typeName)?")
                } else if let type = SwiftDataClass.swiftType(element.type) {
                    lines.append("    var \(property): \(type)?")
                } else {
                    lines.append("    // \(property): \(element.type.rawValue) has no SwiftData type")
                }
            }
        }
        lines.append("}")
        return lines
    }

    /// The property's line in the class.
    var propertyLine: String {
        let property = SwiftModelSource.identifier(attribute.name)
        let line = "var \(property): \(typeName)\(attribute.isOptional ? "?" : "")"
        return rawValueElement == nil ? line : line + "  // an enum with raw values in the app; the model does not list its cases"
    }
}
