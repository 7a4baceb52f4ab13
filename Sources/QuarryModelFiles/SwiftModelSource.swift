import QuarryModel

/// Swift source for a model's classes, as an app developer would paste it: SwiftData
/// `@Model` classes, or Core Data `NSManagedObject` subclasses as Xcode's "Manual/None"
/// code generation writes them. Works on a `CoreDataModel`, so Quarry's entities
/// (through `CoreDataModel(entities:)`) and model files give the same code.
///
/// Each entity is a class named after it; a sub-entity's class inherits from its parent's.
public enum SwiftModelStyle: String, CaseIterable, Sendable {
    case swiftData = "swiftdata"
    case coreData = "coredata"
}

public struct SwiftModelSource: Sendable {
    public let model: CoreDataModel

    public init(model: CoreDataModel) { self.model = model }

    /// The whole model: the imports, then every entity's class, parents before children.
    public func source(style: SwiftModelStyle) -> String {
        let ordered = model.entities.sorted { (model.ancestors(of: $0.name).count, $0.name) < (model.ancestors(of: $1.name).count, $1.name) }
        return ([imports(style)] + ordered.map { classSource($0, style: style) }).joined(separator: "\n\n") + "\n"
    }

    /// One entity's class with the imports it needs; nil when the model has no such entity.
    public func source(for name: String, style: SwiftModelStyle) -> String? {
        guard let entity = model.entity(named: name) else { return nil }
        return imports(style) + "\n\n" + classSource(entity, style: style) + "\n"
    }

    private func imports(_ style: SwiftModelStyle) -> String {
        "import Foundation\nimport " + (style == .swiftData ? "SwiftData" : "CoreData")
    }

    private func classSource(_ entity: CoreDataEntity, style: SwiftModelStyle) -> String {
        let names = SwiftNames(model: model)
        switch style {
        case .swiftData: return SwiftDataClass(model: model, entity: entity, names: names).source
        case .coreData: return ManagedObjectClass(model: model, entity: entity, names: names).source
        }
    }

    /// The Swift class name of an entity: the last part of its class name (`App.Car` is
    /// `Car` in module App), else the entity's name.
    package static func className(_ entity: CoreDataEntity) -> String {
        identifier(typeName(entity))
    }

    /// The class name before it is made an identifier.
    package static func typeName(_ entity: CoreDataEntity) -> String {
        entity.className?.split(separator: ".").last.map(String.init) ?? entity.name
    }

    /// The name of the Swift class of entity `name` (before it is made an identifier), as
    /// the model's classes are written: its class name in `model` when it has one.
    public static func typeName(of name: String, in model: CoreDataModel?) -> String {
        model?.entity(named: name).map(typeName) ?? name
    }

    package static func className(of name: String, in model: CoreDataModel) -> String {
        model.entity(named: name).map(className) ?? identifier(name)
    }

    /// `name` as a Swift identifier: itself when it is one (a keyword in backticks, as
    /// Swift escapes one); otherwise each run of characters an identifier cannot hold is
    /// written `_`, with a `_` before a leading digit (`first name` is `first_name`, `$0`
    /// is `_0`), and a name of none of its characters is `_` and their code points
    /// (`%%` is `_25_25`). No raw identifier: Swift before 6.2 has none, and `_name`, the
    /// storage a property wrapper makes, cannot be written for one. Distinct names may
    /// meet here: `SwiftNames` tells them apart within a class.
    public static func identifier(_ name: String) -> String {
        if isIdentifier(name) { return keywords.contains(name) ? "`\(name)`" : name }
        var out = ""
        for scalar in name.unicodeScalars {
            if scalar.properties.isXIDContinue { out.unicodeScalars.append(scalar) } else if !out.hasSuffix("_") { out += "_" }
        }
        if out.allSatisfy({ $0 == "_" }) {
            return "_" + name.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: "_")
        }
        if let first = out.unicodeScalars.first, first != "_", !first.properties.isXIDStart { out = "_" + out }
        return out
    }

    /// Whether `name` is a Swift identifier as it is (a keyword too, which backticks
    /// make one): a letter or `_` then letters, digits and `_`, as Unicode's identifier
    /// properties say; `_` alone is not one (it binds nothing).
    public static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name != "_" else { return false }
        return (first == "_" || first.properties.isXIDStart) && name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isXIDContinue }
    }

    /// The Swift type of a Quarry attribute's property in the generated classes (without
    /// `?`); nil when it has none.
    public static func swiftType(of attribute: AttributeDescription) -> String? {
        SwiftDataClass.swiftType(CoreDataAttribute(quarry: attribute).type)
    }

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any", "catch", "false", "is",
        "nil", "super", "self", "Self", "throw", "throws", "true", "try", "await", "async", "some", "any", "Type"
    ]

    /// A Swift string literal holding `text`.
    static func stringLiteral(_ text: String) -> String {
        "\""
            + escaping(text) { scalar in
                switch scalar {
                case "\\": return "\\\\"
                case "\"": return "\\\""
                case "\n": return "\\n"
                case "\r": return "\\r"
                case "\t": return "\\t"
                case _ where scalar.value < 0x20 || scalar.value == 0x7F: return "\\u{\(String(scalar.value, radix: 16))}"
                default: return nil
                }
            } + "\""
    }

    /// Xcode's `defaultValueString` as a Swift expression of the attribute's type; nil when
    /// it has no literal form (binary, transformable) or does not read as the type.
    static func defaultExpression(_ attribute: CoreDataAttribute) -> String? {
        guard let text = attribute.defaultValue else { return nil }
        switch attribute.type {
        case .integer16: return Int16(text).map(String.init)
        case .integer32: return Int32(text).map(String.init)
        case .integer64: return Int64(text).map(String.init)
        case .double, .float:
            guard let d = Double(text), d.isFinite else { return nil }
            return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .decimal:
            guard let d = Double(text), d.isFinite else { return nil }
            return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : "Decimal(string: \(stringLiteral(text)))!"
        case .boolean:
            switch text.lowercased() {
            case "yes", "true", "1": return "true"
            case "no", "false", "0": return "false"
            default: return nil
            }
        case .date:
            guard let seconds = Double(text), seconds.isFinite else { return nil }
            return
                "Date(timeIntervalSinceReferenceDate: \(seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)))"
        case .string: return stringLiteral(text)
        case .uuid:
            // A literal the generated code may force: checked here to be a UUID's text.
            let groups = text.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
            guard groups == [8, 4, 4, 4, 12], text.allSatisfy({ $0 == "-" || $0.isHexDigit }) else { return nil }
            return "UUID(uuidString: \(stringLiteral(text)))!"
        case .uri, // URL(string:) is optional: no literal of type URL
            .binary, .transformable, .undefined, .objectID, .composite:
            return nil
        }
    }
}
