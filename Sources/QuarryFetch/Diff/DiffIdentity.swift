import QuarryEngine
import QuarryModel
import QuarryStore

/// What an entity's objects are known by when two stores are compared: the attributes
/// `by` names; else another program's table's primary key (any type, several columns
/// included); else the row key of a store that gives every object one for life (Quarry's
/// object IDs, Core Data's `Z_PK`). Views, tables without a primary key (rows known by
/// their place, which another copy need not share) and keys a server numbers per session
/// have none: refused by name, with the `by` that would give one.
struct DiffIdentity {
    /// SQL expressions of the key's columns, over the entity's relation.
    var columns: [String]
    /// The attributes the key is made of (none for a row key): not compared as values.
    var attributes: [String]
    /// Which key columns hold text (ordered by their bytes).
    var textKeys: [Bool]
    /// The option that would name a key, for refusals.
    var fix: String

    /// `qualified`: columns named with their table's name (the reads join others).
    init(_ context: ObjectContext, _ entity: EntityDescription, by: [String]?, side: String, qualified: Bool = false) throws {
        let storage = context.mapped(entity)
        let rowKey = qualified ? quoteIdentifier(storage.relation) + "." + storage.key : storage.key
        fix = Self.fix(for: entity)
        func byAttributes(_ names: [String]) throws -> (columns: [String], attributes: [String], textKeys: [Bool]) {
            let attributes = try names.map { name -> AttributeDescription in
                guard let attribute = entity.attribute(named: name) else {
                    throw DiffError.unknownKey(
                        entity: entity.name, key: name, side: side, suggestion: closestMatch(to: name, in: entity.attributeNames))
                }
                return attribute
            }
            return (
                attributes.map { Self.expression(storage, $0.name, of: entity, qualified: qualified) }, names,
                attributes.map { $0.type == .string || $0.type == .uuid }
            )
        }
        if let by, !by.isEmpty {
            (columns, attributes, textKeys) = try byAttributes(by)
            return
        }
        let rowKeyHolds = !storage.needsIntegerKeyCheck && storage.numberedRows == nil && !storage.keyIsPlace
        if !storage.primaryKey.isEmpty {
            if storage.primaryKey.allSatisfy({ entity.attribute(named: $0) != nil }) {
                (columns, attributes, textKeys) = try byAttributes(storage.primaryKey)
                return
            }
            if storage.primaryKey == [storage.keyColumn], rowKeyHolds {
                (columns, attributes, textKeys) = ([rowKey], [], [false])
                return
            }
        }
        switch storage.layout {
        case .quarry, .coreData:
            guard rowKeyHolds else { break }
            (columns, attributes, textKeys) = ([rowKey], [], [false])
            return
        case .foreignView:
            throw DiffError.ambiguousIdentity(entity: entity.name, reason: "it is a view, whose rows have no key of their own", fix: fix)
        case .foreignTable:
            // Quarry's own tables on a server: keyed by object ID, as in a Quarry file.
            if storage.keyColumn == EntityStorage.quarryKeyColumn, rowKeyHolds {
                (columns, attributes, textKeys) = ([rowKey], [], [false])
                return
            }
            throw DiffError.ambiguousIdentity(
                entity: entity.name, reason: "its table has no primary key, and a row's place is not shared by another copy", fix: fix)
        }
        throw DiffError.ambiguousIdentity(entity: entity.name, reason: "its rows are known by place, not by a key", fix: fix)
    }

    /// `by = { Entity = "code" }` with a key the entity holds unique where it declares one.
    static func fix(for entity: EntityDescription) -> String {
        if let unique = entity.attributes.first(where: \.isUnique) { return "by = { \(entity.name) = \"\(unique.name)\" }" }
        if let keys = entity.uniqueness.first, !keys.isEmpty {
            return keys.count == 1
                ? "by = { \(entity.name) = \"\(keys[0])\" }"
                : "by = { \(entity.name) = { \(keys.map { "\"\($0)\"" }.joined(separator: ", ")) } }"
        }
        return "by = { \(entity.name) = \"<an attribute unique in both stores>\" }"
    }

    /// Attribute `name`'s column as objects read it (`EntityStorage.selected`), without the
    /// alias it may carry: the reads name every column themselves.
    static func expression(_ storage: EntityStorage, _ name: String, of entity: EntityDescription, qualified: Bool = false) -> String {
        expression(storage, name, of: entity, qualifier: qualified ? storage.relation : nil)
    }

    /// The same, its columns named with `qualifier` (a table's alias), unquoted.
    static func expression(_ storage: EntityStorage, _ name: String, of entity: EntityDescription, qualifier: String?) -> String {
        let selected = storage.selected(name, of: entity, qualifier: qualifier)
        let alias = " AS " + quoteIdentifier(name)
        return selected.hasSuffix(alias) ? String(selected.dropLast(alias.count)) : selected
    }
}
