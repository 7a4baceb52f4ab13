import Foundation
import QuarryModel

/// An entity as Quarry's own file keeps it in its model table (`quarry_model`): the
/// model's definition as JSON, plus the key column of its table, which the file has
/// always recorded (and which Quarry versions before the store mapping read).
///
/// Written by `JSONEncoder` from the model's `Encodable` conformances; read back by hand
/// from a `JSONTree`, because the model is read at every open and `JSONDecoder` spends
/// more on setting up its generic containers than on the reading.
package struct StoredDefinition: Encodable {
    package var entity: EntityDescription

    init(_ entity: EntityDescription) { self.entity = entity }

    /// The definition the model table's `text` holds; `JSONSyntax` or `Unreadable` when it
    /// is not one Quarry wrote.
    package init(text: String) throws {
        let json = try JSONTree(parsing: text)
        // Every table Quarry makes is keyed by `_pk`; a definition naming another key
        // column is not one Quarry wrote.
        if let key = try json.optional("primaryKey", \.string), key != EntityStorage.quarryKeyColumn { throw Unreadable() }
        var entity = EntityDescription(
            name: try json.required("name", \.string),
            attributes: try json.required("attributes", \.array).map(Self.attribute),
            relationships: try (json.optional("relationships", \.array) ?? []).map(Self.relationship))
        entity.parent = try json.optional("parent", \.string)
        entity.isAbstract = try json.optional("isAbstract", \.bool) ?? false
        entity.uniqueness = try (json.optional("uniqueness", \.array) ?? []).map { names in
            guard let names = names.strings else { throw Unreadable() }
            return names
        }
        // Other names of its relationships (`flight_set` for `flights`), each to a name it has.
        if case .object(let members)? = try json.optional("otherNames", { $0 }) {
            for (name, value) in members {
                guard let real = value.string else { throw Unreadable() }
                entity.relationshipAliases[name] = real
            }
        }
        self.entity = entity
    }

    /// The definition as the model table's text.
    package static func text(_ entity: EntityDescription) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(StoredDefinition(entity)), as: UTF8.self)
    }

    struct Unreadable: Error {}

    private static func attribute(_ json: JSONTree) throws -> AttributeDescription {
        var a = AttributeDescription(
            name: try json.required("name", \.string),
            type: try json.required("type", \.attributeType),
            isOptional: try json.required("isOptional", \.bool),
            defaultValue: try json.optional("defaultValue", \.value),
            isIndexed: try json.required("isIndexed", \.bool),
            isUnique: try json.required("isUnique", \.bool))
        a.renamedFrom = try json.optional("renamedFrom", \.string)
        return a
    }

    private static func relationship(_ json: JSONTree) throws -> RelationshipDescription {
        var r = RelationshipDescription(
            name: try json.required("name", \.string),
            destination: try json.required("destination", \.string),
            inverse: try json.optional("inverse", \.string),
            isToMany: try json.required("isToMany", \.bool),
            deleteRule: try json.required("deleteRule", \.deleteRule),
            column: try json.optional("column", \.string),
            targetKey: try json.optional("targetKey", \.string))
        r.isRequired = try json.optional("isRequired", \.bool)
        // Only `true` is written; anything else reads as declared.
        r.isImplicitInverse = try json.optional("isImplicitInverse", \.bool) == true ? true : nil
        return r
    }

    private enum Keys: String, CodingKey { case primaryKey }

    /// The definition and, beside its keys, the key column.
    package func encode(to encoder: Encoder) throws {
        try entity.encode(to: encoder)
        var keys = encoder.container(keyedBy: Keys.self)
        try keys.encode(EntityStorage.quarryKeyColumn, forKey: .primaryKey)
    }
}

/// Typed reads of a stored definition's members; a member of the wrong type is unreadable.
extension JSONTree {
    fileprivate func required<T>(_ key: String, _ read: (JSONTree) -> T?) throws -> T {
        guard let member = self[key], let value = read(member) else { throw StoredDefinition.Unreadable() }
        return value
    }

    /// Absent and `null` alike are nil, as `decodeIfPresent` read them.
    fileprivate func optional<T>(_ key: String, _ read: (JSONTree) -> T?) throws -> T? {
        guard let member = self[key], !member.isNull else { return nil }
        guard let value = read(member) else { throw StoredDefinition.Unreadable() }
        return value
    }

    package var attributeType: AttributeType? { string.flatMap(AttributeType.init(rawValue:)) }
    fileprivate var deleteRule: DeleteRule? { string.flatMap(DeleteRule.init(rawValue:)) }

    /// A default value as `Value`'s encoding writes it: `{"type": tag, "value": ...}`.
    package var value: Value? {
        let v = self["value"]
        switch self["type"]?.string {
        case "null": return .null
        case "integer": return v?.integer.map(Value.integer)
        case "real": return v?.double.map(Value.real)
        case "text": return v?.string.map(Value.text)
        case "blob", "textBytes":
            guard let elements = v?.array else { return nil }
            let bytes = elements.compactMap { $0.integer.flatMap(UInt8.init(exactly:)) }
            guard bytes.count == elements.count else { return nil }
            return self["type"]?.string == "blob" ? .blob(bytes) : Value(storedText: bytes)
        case "bool": return v?.bool.map(Value.bool)
        case "date": return v?.double.map(Value.date)
        default: return nil
        }
    }
}
