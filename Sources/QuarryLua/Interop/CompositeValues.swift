import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

/// A SwiftData composite (a `Codable` struct kept as columns of its entity's table) in Lua:
/// the store shows its elements as attributes keyed by path (`author.person`); Lua sees one
/// table, `o.author.person`, nested as the struct is. A composite whose elements are all
/// nil is nil, as SwiftData reads an absent optional struct; assigning nil makes every
/// element nil, and assigning a table sets every element (those it leaves out to nil).
/// Tables are read raw, so no metamethod runs (and none can raise across Swift frames).
enum CompositeValues {
    /// Pushes composite `name` of an object whose element values `value` gives.
    static func push(
        _ state: OpaquePointer, _ name: String, elements: [AttributeDescription],
        value: (AttributeDescription) throws -> Value
    ) throws {
        let leaves = try elements.map { element in
            (path: element.name.dropFirst(name.count + 1).split(separator: ".").map(String.init), attribute: element, value: try value(element))
        }
        pushLevel(state, leaves.filter { !$0.path.isEmpty }[...])
    }

    /// One level of the table: nil when every value below it is nil.
    private static func pushLevel(_ state: OpaquePointer, _ leaves: ArraySlice<(path: [String], attribute: AttributeDescription, value: Value)>) {
        guard leaves.contains(where: { $0.value != .null }) else { return lua_pushnil(state) }
        lua_createtable(state, 0, Int32(leaves.count))
        var done: Set<String> = []
        for leaf in leaves where done.insert(leaf.path[0]).inserted {
            let key = leaf.path[0]
            if leaf.path.count == 1 {
                pushAttributeValue(state, leaf.value, of: leaf.attribute)
            } else {
                let below = leaves.filter { $0.path.count > 1 && $0.path[0] == key }
                    .map { (path: Array($0.path.dropFirst()), attribute: $0.attribute, value: $0.value) }
                pushLevel(state, below[...])
            }
            LuaTable.setField(state, -2, key)
        }
    }

    /// The value of each element of composite `name` for the Lua value at `index` (nil or a
    /// table, nested as the composite is). Every field must name an element and hold a
    /// value it can take, so a misspelt field is an error, not a value lost.
    static func values(
        _ state: OpaquePointer, _ index: Int32, _ name: String, entity: String,
        elements: [AttributeDescription]
    ) throws -> [String: Value] {
        let index = lua_absindex(state, index)
        var result = Dictionary(uniqueKeysWithValues: elements.map { ($0.name, Value.null) })
        switch lua_type(state, index) {
        case LUA_TNIL: return result
        case LUA_TTABLE: break
        default:
            throw LuaError(
                "\(entity).\(name) is a composite: give it a table of its elements (\(fieldNames(name, elements))) or nil, not \(String(cString: lua_typename(state, lua_type(state, index))))"
            )
        }
        try read(state, index, prefix: name, entity: entity, elements: elements, into: &result)
        return result
    }

    private static func read(
        _ state: OpaquePointer, _ table: Int32, prefix: String, entity: String,
        elements: [AttributeDescription], into result: inout [String: Value]
    ) throws {
        let (keys, nonString) = LuaTable.stringKeys(state, table)
        if nonString { throw LuaError("\(entity).\(prefix) takes a table keyed by element names (\(fieldNames(prefix, elements)))") }
        for key in keys {
            let path = prefix + "." + key
            LuaTable.field(state, table, key)
            defer { quarry_pop(state, 1) }
            if let element = elements.first(where: { $0.name == path }) {
                guard let value = try attributeValue(state, -1, for: element) else {
                    throw LuaError.cannotHold(entity, path, String(cString: lua_typename(state, lua_type(state, -1))))
                }
                result[path] = value
            } else if elements.contains(where: { $0.name.hasPrefix(path + ".") }) {
                // A nested composite: nil leaves its elements nil.
                guard lua_type(state, -1) == LUA_TTABLE || lua_type(state, -1) == LUA_TNIL else {
                    throw LuaError("\(entity).\(path) is a composite: give it a table or nil")
                }
                if lua_type(state, -1) == LUA_TTABLE {
                    try read(state, lua_gettop(state), prefix: path, entity: entity, elements: elements, into: &result)
                }
            } else {
                throw LuaError("\(entity).\(prefix) has no element '\(key)' (it has \(fieldNames(prefix, elements)))")
            }
        }
    }

    /// Sets each element of a composite on `object`: all or none. A value `setValue` would
    /// refuse is handed to it first, so its error is the one raised and nothing was set.
    static func assign(_ values: [String: Value], to object: ManagedObject) throws {
        let ordered = values.sorted { $0.key < $1.key }
        for (key, value) in ordered {
            guard let attribute = object.entity.writableAttribute(named: key) else {
                try object.setValue(value, forKey: key)
                continue
            }
            switch attribute.type.coerce(value) {
            case .failure: try object.setValue(value, forKey: key)
            case .success(let v) where v.isNull && !attribute.isOptional: try object.setValue(value, forKey: key)
            case .success: break
            }
        }
        for (key, value) in ordered { try object.setValue(value, forKey: key) }
    }

    /// The element names one level below `prefix`, for messages.
    private static func fieldNames(_ prefix: String, _ elements: [AttributeDescription]) -> String {
        var names: [String] = []
        for element in elements where element.name.hasPrefix(prefix + ".") {
            guard let first = element.name.dropFirst(prefix.count + 1).split(separator: ".").first.map(String.init) else { continue }
            if !names.contains(first) { names.append(first) }
        }
        return names.joined(separator: ", ")
    }
}
