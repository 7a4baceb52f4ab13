import CLua
import CQuarryShim
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarryStore
import QuarrySwiftReading

/// A Lua handle on an entity, by name: it follows the entity through migrations.
final class EntityHandle {
    let name: String
    /// The store `open()` opened whose entity this is (nil: the session's store).
    weak var store: OpenedStore?
    init(name: String, store: OpenedStore? = nil) {
        self.name = name
        self.store = store
    }
}

extension QuarryRuntime {
    /// The one handle per entity name, so `Item == entities()[1]` holds.
    func handle(for name: String) -> EntityHandle {
        if let handle = entityHandles[name] { return handle }
        let handle = EntityHandle(name: name, store: focus)
        entityHandles[name] = handle
        return handle
    }

    func pushEntity(_ name: String) -> Int32 {
        pushSwiftObject(state, handle(for: name), kind: .entity)
        return 1
    }

    /// Binds a global for every entity whose name is free (nil, or already a handle).
    func bindEntityGlobals() {
        guard focus == nil else { return }
        for entity in context.entities { bindGlobalIfFree(entity.name) }
    }

    /// Clears every global holding an entity (`.open` of another store), so Tab, a typo's
    /// suggestion and the names themselves are the new store's: the old file's `notes`
    /// went on completing and printed `entity notes (gone)`. A global a script set to
    /// anything else stays; the new store's entities are bound after.
    func unbindEntityGlobals() {
        guard focus == nil else { return }
        quarry_pushglobaltable(state)
        for name in LuaTable.stringKeys(state, -1).keys {
            let isEntity = LuaTable.field(state, -1, name) == LUA_TUSERDATA && userdataKind(state, -1) == UserdataKind.entity.rawValue
            quarry_pop(state, 1)
            guard isEntity else { continue }
            lua_pushnil(state)
            LuaTable.setField(state, -2, name)
        }
        quarry_pop(state, 1)
    }

    func bindGlobalIfFree(_ name: String) {
        // Another store's entities are its fields (`b.Item`), never globals.
        guard focus == nil else { return }
        quarry_pushglobaltable(state)
        let type = LuaTable.field(state, -1, name)
        let free = type == LUA_TNIL || userdataKind(state, -1) == UserdataKind.entity.rawValue
        quarry_pop(state, 1)
        if free {
            _ = pushEntity(name)
            LuaTable.setField(state, -2, name)
        }
        quarry_pop(state, 1)
    }

    /// `(pred, args, ...)` of updateall/deleteall: the predicate (nil, a format string or a
    /// predicate object), its arguments table, and the index of the next argument.
    /// `valuesFollow` says a table of values may come third without arguments (updateall);
    /// without it (deleteall), a third argument that is not a table is refused rather than
    /// left unread, as `deleteall("id == 1", 5)` would delete without its 5.
    func batchPredicate(_ call: LuaCall, entity: String, valuesFollow: Bool = true) throws -> (Predicate?, Int32) {
        if let object = predicateObject(call.state, 2) {
            // A predicate object holds its arguments: what follows it is the next argument.
            return (object, 3)
        }
        let format = try call.optionalString(2)
        var arguments: [PredicateArgument] = []
        var captures: [String: PredicateArgument] = [:]
        if call.type(3) == LUA_TTABLE, format != nil || call.argumentCount >= 4 {
            // A Swift `#Predicate` takes its captured values from the table, by name.
            if let format, SwiftPredicateReader.isSwift(format) {
                captures = try namedPredicateArguments(call.state, 3, what: "args", operation: "predicate")
            } else if valuesFollow, LuaTable.length(call.state, 3) == 0, LuaTable.hasStringKey(call.state, 3) {
                // `updateall("code == %@", { n = 0 })`: values where the arguments go. A
                // predicate that needs none is read (updateall then names the form); one
                // that does is answered with the form, not "%@ has no argument", as are
                // values typed before the arguments (`updateall("r == %@", { n = 0 }, { "G" })`).
                let keys = LuaTable.stringKeys(call.state, 3).keys.sorted().map { "\($0) = ..." }.joined(separator: ", ")
                let form = LuaError(
                    "the values to set come after the predicate's arguments: updateall(\"pred\", { args }, { \(keys) })",
                    operation: "updateall")
                guard call.argumentCount == 3, let predicate = try? parsePredicate(format, [], [:], entity: entity) else { throw form }
                return (predicate, 4)
            } else {
                arguments = try predicateArguments(call.state, 3, what: "args")
            }
        } else if !call.isNoneOrNil(3), call.type(3) != LUA_TTABLE, call.argumentCount >= 4 || !valuesFollow {
            // `fetch` and `count` take their arguments one by one; a batch change takes them
            // in one table, as its values follow them: the form is named, as typed from habit.
            let form = valuesFollow ? #"updateall("pred", { args }, { key = value })"# : #"deleteall("pred", { args })"#
            throw call.argumentError(3, "table of arguments expected, got \(call.typeName(3)); the arguments go in one table: \(form)")
        }
        return (try parsePredicate(format, arguments, captures, entity: entity), 4)
    }

    /// The entity of the handle that a method was called on (argument 1).
    func entityName(_ call: LuaCall) throws -> String {
        guard let handle = swiftObject(call.state, 1, kind: .entity, as: EntityHandle.self) else {
            throw LuaError(
                "calling '\(call.functionName)' on bad self (an entity expected, got \(call.typeName(1)); use ':' as in Item:\(call.functionName)(...))"
            )
        }
        return handle.name
    }

    func defineEntity(_ name: String, _ call: LuaCall, definitionAt index: Int32) throws -> Int32 {
        try call.table(index)
        var description = try EntityDefinitionReader(state: call.state, entity: name).read(table: index)
        var dropping: Set<String> = []
        if !call.isNoneOrNil(index + 1) {
            try call.table(index + 1)
            dropping = try readOptions(into: &description, call, at: index + 1)
        }
        // Said once the migration is done: an attribute left out (a typo, or a table of
        // options read as the definition) takes its column and values with it.
        let dropped = (try? context.attributesDropped(by: description)) ?? []
        do {
            try context.define(description, dropping: dropping)
        } catch let error as StoreError {
            // SQLite's own words ("attempt to write a readonly database") name no entity.
            if error.isDatabaseFailure { throw StoreError.during(operation: "entity \(name)", error) }
            throw error
        }
        if !dropped.isEmpty {
            let listed = dropped.map { "\($0.name) (\($0.values) value\($0.values == 1 ? "" : "s"))" }.joined(separator: ", ")
            writeNotice(
                "note: entity \(name): dropped \(dropped.count == 1 ? "attribute" : "attributes") \(listed) with \(dropped.count == 1 ? "its column" : "their columns")"
            )
        }
        bindGlobalIfFree(name)
        return pushEntity(name)
    }

    /// `{ parent = "Car", abstract = true, uniqueness = { {"a"}, {"b", "c"} }, drop = { "note" } }`;
    /// returns the columns `drop` names, which a table of a file Quarry did not make loses
    /// only so (`ObjectContext.definitionOfOtherProgramsTable`).
    @discardableResult
    func readOptions(into description: inout EntityDescription, _ call: LuaCall, at index: Int32) throws -> Set<String> {
        let state = call.state
        let operation = "entity \(description.name)"
        let (keys, nonString) = LuaTable.stringKeys(state, index)
        if let unknown = keys.first(where: { !["parent", "abstract", "uniqueness", "drop"].contains($0) }) ?? (nonString ? "?" : nil) {
            throw LuaError("unknown option '\(unknown)' (options: parent, abstract, uniqueness, drop)", operation: operation)
        }
        var dropping: Set<String> = []
        if LuaTable.field(state, index, "drop") != LUA_TNIL {
            defer { quarry_pop(state, 1) }
            let list = lua_gettop(state)
            guard lua_type(state, list) == LUA_TTABLE, LuaTable.length(state, list) > 0 else {
                throw OptionError("drop", mustBe: "a list of column names", operation: operation)
            }
            for i in 1...LuaTable.length(state, list) {
                lua_rawgeti(state, list, lua_Integer(i))
                defer { quarry_pop(state, 1) }
                guard lua_type(state, -1) == LUA_TSTRING else { throw OptionError("drop", mustBe: "a list of column names", operation: operation) }
                dropping.insert(luaString(state, -1))
            }
        } else {
            quarry_pop(state, 1)
        }
        switch LuaTable.field(state, index, "parent") {
        case LUA_TNIL: break
        case LUA_TSTRING: description.parent = luaString(state, -1)
        default:
            if let handle = swiftObject(state, -1, kind: .entity, as: EntityHandle.self) {
                description.parent = handle.name
                break
            }
            quarry_pop(state, 1)
            throw LuaError("parent must name an entity", operation: operation)
        }
        quarry_pop(state, 1)
        if LuaTable.field(state, index, "abstract") != LUA_TNIL { description.isAbstract = lua_toboolean(state, -1) != 0 }
        quarry_pop(state, 1)
        if LuaTable.field(state, index, "uniqueness") != LUA_TNIL {
            defer { quarry_pop(state, 1) }
            let list = lua_gettop(state)
            guard lua_type(state, list) == LUA_TTABLE else {
                throw OptionError("uniqueness", mustBe: "a list of lists of attribute names", operation: operation)
            }
            var constraints: [[String]] = []
            for i in 1...max(1, LuaTable.length(state, list)) where LuaTable.length(state, list) > 0 {
                lua_rawgeti(state, list, lua_Integer(i))
                defer { quarry_pop(state, 1) }
                let item = lua_gettop(state)
                guard lua_type(state, item) == LUA_TTABLE, LuaTable.length(state, item) > 0 else {
                    throw OptionError("uniqueness", mustBe: "a list of lists of attribute names", operation: operation)
                }
                var names: [String] = []
                for j in 1...LuaTable.length(state, item) {
                    lua_rawgeti(state, item, lua_Integer(j))
                    defer { quarry_pop(state, 1) }
                    guard lua_type(state, -1) == LUA_TSTRING else {
                        throw OptionError("uniqueness", mustBe: "a list of lists of attribute names", operation: operation)
                    }
                    names.append(luaString(state, -1))
                }
                constraints.append(names)
            }
            description.uniqueness = constraints
        }
        return dropping
    }
}

/// Reads `{ title = "string?", n = { "int64", default = 0, indexed = true } }`.
struct EntityDefinitionReader {
    let state: OpaquePointer
    let entity: String

    func read(table index: Int32) throws -> EntityDescription {
        let (keys, nonString) = LuaTable.stringKeys(state, index)
        if nonString { throw LuaError("every key of the definition must be an attribute name", operation: "entity \(entity)") }
        var attributes: [AttributeDescription] = []
        var relationships: [RelationshipDescription] = []
        for key in keys {
            LuaTable.field(state, index, key)
            defer { quarry_pop(state, 1) }
            if let relationship = try relationship(key, at: lua_gettop(state)) {
                relationships.append(relationship)
            } else {
                attributes.append(try attribute(key, at: lua_gettop(state)))
            }
        }
        return EntityDescription(name: entity, attributes: attributes, relationships: relationships)
    }

    /// `{ one = "Person", inverse = "items", delete = "nullify" }` or `{ many = "Tag", ... }`.
    func relationship(_ name: String, at index: Int32) throws -> RelationshipDescription? {
        guard lua_type(state, index) == LUA_TTABLE else { return nil }
        func string(_ key: String) throws -> String? {
            defer { quarry_pop(state, 1) }
            switch LuaTable.field(state, index, key) {
            case LUA_TNIL: return nil
            case LUA_TSTRING: return luaString(state, -1)
            default: throw OptionError(key, mustBe: "a string", in: "'\(name)'", operation: "entity \(entity)")
            }
        }
        let one = try string("one")
        let many = try string("many")
        guard one != nil || many != nil else { return nil }
        if one != nil, many != nil { throw LuaError("'\(name)' cannot be both one and many", operation: "entity \(entity)") }
        var rule = DeleteRule.nullify
        if let text = try string("delete") {
            // setdefault comes only from a foreign file's keys: Quarry's links have no default.
            guard let parsed = DeleteRule(rawValue: text.lowercased()), parsed != .setdefault else {
                throw OptionError(
                    "delete", mustBe: "nullify, cascade, deny or noaction", got: "'\(text)'", in: "'\(name)'", operation: "entity \(entity)")
            }
            rule = parsed
        }
        return RelationshipDescription(
            name: name, destination: (one ?? many)!, inverse: try string("inverse"),
            isToMany: many != nil, deleteRule: rule)
    }

    func attribute(_ name: String, at index: Int32) throws -> AttributeDescription {
        switch lua_type(state, index) {
        case LUA_TSTRING:
            return try attribute(name, spec: luaString(state, index), options: nil)
        case LUA_TTABLE:
            guard LuaTable.element(state, index, 1) == LUA_TSTRING else {
                quarry_pop(state, 1)
                throw LuaError("'\(name)' needs its type first, as { \"int64\", default = 0 }", operation: "entity \(entity)")
            }
            let spec = luaString(state, -1)
            quarry_pop(state, 1)
            return try attribute(name, spec: spec, options: index)
        default:
            throw OptionError(
                "'\(name)'", mustBe: "a type name such as \"string\" or a table such as { \"int64\", default = 0 }", operation: "entity \(entity)")
        }
    }

    /// Types as SQL, Core Data's model editor and Swift name them, for the "did you mean"
    /// of an unknown type (`integer` is no near miss of `int64` by spelling).
    private static let typeNamedElsewhere: [String: String] = [
        "integer": "int64", "bigint": "int64", "long": "int64", "int8": "int64", "integer 64": "int64", "smallint": "int16",
        "integer 16": "int16", "integer 32": "int32", "text": "string", "varchar": "string", "char": "string", "str": "string",
        "float": "double", "real": "double", "number": "double", "numeric": "decimal", "boolean": "bool", "datetime": "date",
        "timestamp": "date", "blob": "binary", "data": "binary", "binary data": "binary", "bytes": "binary"
    ]

    func attribute(_ name: String, spec: String, options: Int32?) throws -> AttributeDescription {
        var typeName = spec
        var optional = false
        if typeName.hasSuffix("?") {
            typeName.removeLast()
            optional = true
        }
        guard let type = AttributeType(name: typeName) else {
            let names = AttributeType.allCases.map(\.rawValue) + ["int"]
            throw LuaError(
                "unknown type '\(typeName)' for '\(name)'", operation: "entity \(entity)",
                suggestion: Self.typeNamedElsewhere[typeName.lowercased()] ?? closestMatch(to: typeName, in: names),
                remedy: "types are " + AttributeType.allCases.map(\.rawValue).joined(separator: ", "))
        }
        var attribute = AttributeDescription(name: name, type: type, isOptional: optional)
        guard let options else { return attribute }
        if LuaTable.field(state, options, "optional") == LUA_TBOOLEAN { attribute.isOptional = lua_toboolean(state, -1) != 0 }
        quarry_pop(state, 1)
        if LuaTable.field(state, options, "indexed") != LUA_TNIL { attribute.isIndexed = lua_toboolean(state, -1) != 0 }
        quarry_pop(state, 1)
        if LuaTable.field(state, options, "unique") != LUA_TNIL { attribute.isUnique = lua_toboolean(state, -1) != 0 }
        quarry_pop(state, 1)
        switch LuaTable.field(state, options, "renamedFrom") {
        case LUA_TNIL: break
        case LUA_TSTRING: attribute.renamedFrom = luaString(state, -1)
        default:
            quarry_pop(state, 1)
            throw OptionError("renamedFrom", mustBe: "the attribute's old name", in: "'\(name)'", operation: "entity \(entity)")
        }
        quarry_pop(state, 1)
        if LuaTable.field(state, options, "default") != LUA_TNIL {
            guard let value = luaValue(state, -1) else {
                quarry_pop(state, 1)
                throw LuaError("the default of '\(name)' must be a plain value", operation: "entity \(entity)")
            }
            switch type.coerce(value) {
            case .success(let v): attribute.defaultValue = v
            case .failure:
                quarry_pop(state, 1)
                throw LuaError("the default of '\(name)' must be a \(type.rawValue), got \(value.kindName)", operation: "entity \(entity)")
            }
        }
        quarry_pop(state, 1)
        return attribute
    }
}
