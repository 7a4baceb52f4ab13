import CLua
import CQuarryShim
import Foundation
import QuarryModel
import QuarryStore

/// `json` attributes as Lua tables, as the contract has them: a table assigned is stored
/// as JSON text (keys sorted, so equal tables store equal text), and the text reads back
/// as a table. Lua tables whose keys are exactly 1...n are arrays; others are objects.
enum LuaJSON {
    private static let maximumDepth = 200

    /// The Lua value at `index` as JSON text.
    static func encode(_ state: OpaquePointer, _ index: Int32) throws -> String {
        let object = try foundationValue(state, lua_absindex(state, index), depth: 0)
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    private static func foundationValue(_ state: OpaquePointer, _ index: Int32, depth: Int) throws -> Any {
        guard depth < maximumDepth else { throw LuaError("json: the table nests more than \(maximumDepth) levels (or contains itself)") }
        switch lua_type(state, index) {
        case LUA_TNIL: return NSNull()
        case LUA_TBOOLEAN: return lua_toboolean(state, index) != 0
        case LUA_TNUMBER:
            if quarry_isinteger(state, index) != 0 { return NSNumber(value: Int64(quarry_tointeger(state, index, nil))) }
            let d = quarry_tonumber(state, index, nil)
            guard d.isFinite else { throw LuaError("json: \(d) has no JSON form") }
            return NSNumber(value: d)
        case LUA_TSTRING:
            guard let text = String(validating: luaBytes(state, index), as: UTF8.self) else { throw LuaError("json: a string is not valid UTF-8") }
            return text
        case LUA_TUSERDATA:
            if let seconds = dateValue(state, index) { return Value.date(seconds).displayString }
            throw LuaError("json: a \(typeName(state, index)) has no JSON form")
        case LUA_TTABLE where isNullMarker(state, index):
            // `null` keeps a key whose value is JSON null, which a Lua table cannot hold.
            return NSNull()
        case LUA_TTABLE:
            // Each level holds a key and a value on the stack while it reads its table.
            guard lua_checkstack(state, 4) != 0 else { throw LuaError("json: the table nests too deeply") }
            var entries: [(key: Any, value: Any)] = []
            var integerKeys = true
            lua_pushnil(state)
            while lua_next(state, index) != 0 {
                let key: Any
                switch lua_type(state, -2) {
                case LUA_TNUMBER where quarry_isinteger(state, -2) != 0: key = Int(quarry_tointeger(state, -2, nil))
                case LUA_TSTRING:
                    key = luaString(state, -2)
                    integerKeys = false
                default:
                    let kind = typeName(state, -2)
                    quarry_pop(state, 2)
                    throw LuaError("json: table keys must be strings or integers, not \(kind)")
                }
                let value: Any
                do { value = try foundationValue(state, lua_gettop(state), depth: depth + 1) } catch {
                    quarry_pop(state, 2)
                    throw error
                }
                entries.append((key, value))
                quarry_pop(state, 1)
            }
            let positions = entries.compactMap { $0.key as? Int }.sorted()
            if integerKeys, !entries.isEmpty, positions == Array(1...entries.count) {
                return entries.sorted { ($0.key as! Int) < ($1.key as! Int) }.map(\.value)
            }
            var dictionary: [String: Any] = [:]
            for entry in entries { dictionary["\(entry.key)"] = entry.value }
            return dictionary
        default:
            throw LuaError("json: a \(typeName(state, index)) has no JSON form")
        }
    }

    /// Pushes JSON `text` as Lua values (objects and arrays as tables, null as nil); text
    /// that is not JSON is pushed as the string it is.
    static func push(_ state: OpaquePointer, _ text: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else {
            pushString(state, text)
            return
        }
        push(state, foundation: object)
    }

    private static func push(_ state: OpaquePointer, foundation object: Any) {
        switch object {
        case let dictionary as [String: Any]:
            lua_createtable(state, 0, Int32(dictionary.count))
            for (key, value) in dictionary where !(value is NSNull) {
                push(state, foundation: value)
                LuaTable.setField(state, -2, key)
            }
        case let array as [Any]:
            lua_createtable(state, Int32(array.count), 0)
            for (i, value) in array.enumerated() where !(value is NSNull) {
                push(state, foundation: value)
                lua_rawseti(state, -2, lua_Integer(i + 1))
            }
        default:
            pushValue(state, Value(jsonScalar: object))
        }
    }
}

/// The Lua value at `index` as a value for `attribute`: a table becomes JSON text for a
/// `json` attribute; otherwise as `luaValue` reads it (nil when it has no store form).
func attributeValue(_ state: OpaquePointer, _ index: Int32, for attribute: AttributeDescription?) throws -> Value? {
    if attribute?.type == .json, lua_type(state, index) == LUA_TTABLE { return .text(try LuaJSON.encode(state, index)) }
    return luaValue(state, index)
}

/// Pushes an attribute's value: a `json` attribute's text as the table it encodes; with
/// `day` (a column of days: `ManagedObject.keepsDays`), a date as one that prints its day.
func pushAttributeValue(_ state: OpaquePointer, _ value: Value, of attribute: AttributeDescription?, day: Bool = false) {
    if attribute?.type == .json, case .text(let text) = value {
        LuaJSON.push(state, text)
    } else if day, case .date(let seconds) = value {
        pushDate(state, seconds, day: true)
    } else {
        pushValue(state, value)
    }
}

private func typeName(_ state: OpaquePointer, _ index: Int32) -> String {
    String(cString: lua_typename(state, lua_type(state, index)))
}
