import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A store's entities as plain Swift classes, for `#Predicate` to evaluate on Linux, where
/// SwiftData and Core Data are absent. Property names and types are the ones Quarry's
/// `#Predicate` export assumes (`SwiftModelSource.identifier`, `swiftType(of:)`): an
/// optional attribute is `T?`, a to-one `Target?`, a to-many `[Target]`. A sub-entity is a
/// Swift subclass, so a key path of the parent reads a sub-entity's object as Core Data
/// reads it, and a key only a sub-entity declares is not on the parent's class.
///
/// A relationship is a computed property over storage the loader fills; one the loader
/// never reached stops the program saying which (`unloaded`), so a sample cut short can
/// never answer a predicate wrongly, only fail loudly.
struct PlainSwiftClasses {
    let entities: [EntityDescription]

    /// What an entity declares itself: its keys without those its parent has and those
    /// only its sub-entities have.
    func declared(_ entity: EntityDescription) -> (attributes: [AttributeDescription], relationships: [RelationshipDescription]) {
        let parent = entity.parent.flatMap { name in entities.first { $0.name == name } }
        let inherited = Set(
            parent.map { p in (p.attributes.map(\.name) + p.relationships.map(\.name)).filter { !p.subentityKeys.contains($0) } } ?? [])
        func own(_ name: String) -> Bool { !entity.subentityKeys.contains(name) && !inherited.contains(name) }
        return (entity.attributes.filter { own($0.name) }, entity.relationships.filter { own($0.name) })
    }

    /// The Swift type of an attribute's property, `?` included; nil when it has none.
    static func propertyType(_ attribute: AttributeDescription) -> String? {
        SwiftModelSource.swiftType(of: attribute).map { $0 + (attribute.isOptional ? "?" : "") }
    }

    /// The `Parse` function reading an attribute's text in the rows file.
    static func parser(_ attribute: AttributeDescription) -> String {
        switch attribute.type {
        case .int16: return "Parse.int16"
        case .int32: return "Parse.int32"
        case .int64: return "Parse.int64"
        case .double: return "Parse.double"
        case .decimal: return "Parse.decimal"
        case .bool: return "Parse.bool"
        case .date: return "Parse.date"
        case .uuid: return "Parse.uuid"
        case .binary: return "Parse.data"
        case .string, .json: return "Parse.string"
        }
    }

    /// Every class, parents first, and the code all of them share.
    var source: String {
        var depth: [String: Int] = [:]
        func level(_ e: EntityDescription) -> Int {
            if let d = depth[e.name] { return d }
            let d = e.parent.flatMap { p in entities.first { $0.name == p } }.map { level($0) + 1 } ?? 0
            depth[e.name] = d
            return d
        }
        let ordered = entities.sorted { (level($0), $0.name) < (level($1), $1.name) }
        return Self.support + ordered.map(classSource).joined(separator: "\n") + "\n"
    }

    private func classSource(_ entity: EntityDescription) -> String {
        let name = SwiftModelSource.identifier(entity.name)
        let (attributes, relationships) = declared(entity)
        let isRoot = entity.parent == nil
        // Storage names carry the class's number: a subclass may not reuse its parent's.
        let tag = entities.firstIndex { $0.name == entity.name } ?? 0
        var lines = ["class \(name)\(isRoot ? ": Wired" : ": " + SwiftModelSource.identifier(entity.parent ?? "")) {"]
        if isRoot { lines.append("    let quarryID: String") }
        for (n, a) in attributes.enumerated() {
            guard let type = Self.propertyType(a) else { continue }
            if a.isOptional {
                lines.append("    var \(SwiftModelSource.identifier(a.name)): \(type)")
            } else {
                // A required attribute a row holds nil in stops the program when read.
                let label = swiftStringLiteralText("\(entity.name).\(a.name)")
                lines.append("    var quarry\(tag)Value\(n): \(type)?")
                lines.append(
                    "    var \(SwiftModelSource.identifier(a.name)): \(type) { guard let v = quarry\(tag)Value\(n) else { requiredNil(\(label), quarryID) }; return v }"
                )
            }
        }
        for (n, r) in relationships.enumerated() {
            let target = SwiftModelSource.identifier(r.destination)
            let type = r.isToMany ? "[\(target)]" : "\(target)?"
            let label = swiftStringLiteralText("\(entity.name).\(r.name)")
            lines.append("    var quarry\(tag)Stored\(n): \(type) = \(r.isToMany ? "[]" : "nil"); var quarry\(tag)Loaded\(n) = false")
            lines.append(
                "    var \(SwiftModelSource.identifier(r.name)): \(type) { if !quarry\(tag)Loaded\(n) { unloaded(\(label)) }; return quarry\(tag)Stored\(n) }"
            )
        }
        lines.append("    \(isRoot ? "" : "override ")init(_ r: [String: Any]) {")
        if isRoot { lines.append("        quarryID = Parse.id(r)") }
        for (n, a) in attributes.enumerated() where Self.propertyType(a) != nil {
            let key = swiftStringLiteralText(a.name)
            let property = a.isOptional ? SwiftModelSource.identifier(a.name) : "quarry\(tag)Value\(n)"
            lines.append("        \(property) = Parse.optional(r, \(key), \(Self.parser(a)))")
        }
        if !isRoot { lines.append("        super.init(r)") }
        lines.append("    }")
        lines.append("    \(isRoot ? "" : "override ")func wire(_ r: [String: Any], _ objects: [String: AnyObject]) {")
        for (n, r) in relationships.enumerated() {
            let key = swiftStringLiteralText(r.name)
            lines.append(
                "        if let v = r[\(key)] { quarry\(tag)Loaded\(n) = true; quarry\(tag)Stored\(n) = \(r.isToMany ? "Parse.many" : "Parse.one")(v, objects) }"
            )
        }
        if !isRoot { lines.append("        super.wire(r, objects)") }
        lines.append("    }")
        lines.append("}")
        // SwiftData's models are Equatable (PersistentModel is Hashable): `owner == nil` needs it.
        if isRoot { lines.append("extension \(name): Equatable { static func == (a: \(name), b: \(name)) -> Bool { a === b } }") }
        return lines.joined(separator: "\n")
    }

    /// A Swift string literal of `text` (escaped, so any name is safe in one).
    func swiftStringLiteralText(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Reading the rows file: each value is text (numbers of Double, Decimal and Date as the
    /// bits of a Double, so nothing is rounded on the way), or null.
    static let support = #"""
        import Foundation

        func unloaded(_ relationship: String) -> Never {
            FileHandle.standardError.write(Data("the harness did not load \(relationship): a predicate went deeper than the loaded depth\n".utf8))
            exit(3)
        }
        func requiredNil(_ attribute: String, _ id: String) -> Never {
            FileHandle.standardError.write(Data("a predicate read \(attribute) of \(id), which is nil in the store though the model makes it required\n".utf8))
            exit(5)
        }
        protocol Wired: AnyObject { var quarryID: String { get }; func wire(_ r: [String: Any], _ objects: [String: AnyObject]) }
        enum Parse {
            static func id(_ r: [String: Any]) -> String {
                guard let id = r["_id"] as? String else { fail("a row without an id") }
                return id
            }
            static func fail(_ message: String) -> Never {
                FileHandle.standardError.write(Data((message + "\n").utf8))
                exit(4)
            }
            static func required<T>(_ r: [String: Any], _ key: String, _ parse: (String) -> T?) -> T {
                guard let text = r[key] as? String, let value = parse(text) else { fail("\(id(r)).\(key): no value, or not one of its type: \(r[key] ?? "absent")") }
                return value
            }
            static func optional<T>(_ r: [String: Any], _ key: String, _ parse: (String) -> T?) -> T? {
                if r[key] is NSNull { return nil }
                return required(r, key, parse)
            }
            static func one<T>(_ v: Any, _ objects: [String: AnyObject]) -> T? {
                if v is NSNull { return nil }
                guard let id = v as? String, let object = objects[id] as? T else { fail("no object \(v) of type \(T.self)") }
                return object
            }
            static func many<T>(_ v: Any, _ objects: [String: AnyObject]) -> [T] {
                guard let ids = v as? [String] else { fail("not a list of ids: \(v)") }
                return ids.map { id in
                    guard let object = objects[id] as? T else { fail("no object \(id) of type \(T.self)") }
                    return object
                }
            }
            static func int16(_ s: String) -> Int16? { Int16(s) }
            static func int32(_ s: String) -> Int32? { Int32(s) }
            static func int64(_ s: String) -> Int64? { Int64(s) }
            static func double(_ s: String) -> Double? { UInt64(s).map(Double.init(bitPattern:)) }
            static func decimal(_ s: String) -> Decimal? { double(s).map { Decimal($0) } }
            static func bool(_ s: String) -> Bool? { s == "1" ? true : s == "0" ? false : nil }
            static func date(_ s: String) -> Date? { double(s).map(Date.init(timeIntervalSinceReferenceDate:)) }
            static func uuid(_ s: String) -> UUID? { UUID(uuidString: s) }
            static func data(_ s: String) -> Data? { Data(base64Encoded: s) }
            static func string(_ s: String) -> String? { s }
        }
        // NSUUID is a CVarArg on Apple platforms (an NSObject), not on Linux, and Linux's
        // Foundation has no NSPredicate(format:): its line is type-checked against a stand-in
        // taking the same arguments.
        struct StandInNSPredicate { init(format: String, _ arguments: Any...) {} }
        // `localizedStandardContains` (CONTAINS[cd]) is in Apple's #Predicate, not Linux's:
        // the macro's expansion is checked against a stand-in folding case and diacritics
        // as Foundation's `folding(options:locale:)` does. Foundation's `range(of:options:)`
        // folds differently on ligatures and dotted İ (`"ﬁ"` contains "F" there), so what
        // Apple's locale-aware search does with those is not judged here (docs/swift.md).
        extension PredicateExpressions {
            struct StandInLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: StandardPredicateExpression
                where Root.Output: StringProtocol, Other.Output: StringProtocol, Root: Codable & Sendable, Other: Codable & Sendable {
                let root: Root, other: Other
                func evaluate(_ bindings: PredicateBindings) throws -> Bool {
                    let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
                    let other = String(try other.evaluate(bindings)).folding(options: options, locale: nil)
                    return other.isEmpty ? false : String(try root.evaluate(bindings)).folding(options: options, locale: nil).contains(other)
                }
            }
            static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other) -> StandInLocalizedStandardContains<Root, Other> {
                StandInLocalizedStandardContains(root: root, other: other)
            }
        }

        """#
}
