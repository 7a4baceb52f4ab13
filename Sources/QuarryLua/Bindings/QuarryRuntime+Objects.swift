import CLua
import CQuarryShim
import QuarryStore

extension QuarryRuntime {
    /// Methods of objects; each is also `quarry.<name>(o)`, which attributes cannot shadow.
    private var objectMethods: [(String, LuaFunctionBody)] {
        [
            ("delete", { [unowned self] call in
                self.context.delete(try self.object(call, 1))
                return 0
            }),
            ("objectID", { [unowned self] call in call.push(try self.object(call, 1).objectID) }),
            ("entity", { [unowned self] call in self.pushEntity(try self.object(call, 1).entity.name) }),
            ("isInserted", { [unowned self] call in call.push(try self.object(call, 1).isInserted) }),
            ("isDeleted", { [unowned self] call in call.push(try self.object(call, 1).isDeleted) }),
            ("hasChanges", { [unowned self] call in call.push(try self.object(call, 1).hasChanges) }),
            ("changes", { [unowned self] call in
                let changes = try self.object(call, 1).changes
                lua_createtable(call.state, 0, Int32(changes.count))
                for change in changes {
                    lua_createtable(call.state, 2, 0)
                    pushValue(call.state, change.old)
                    lua_rawseti(call.state, -2, 1)
                    pushValue(call.state, change.new)
                    lua_rawseti(call.state, -2, 2)
                    LuaTable.setField(call.state, -2, change.key)
                }
                return 1
            }),
        ]
    }

    func installObjectFunctions() {
        registerMethods(.object, objectMethods)
        for (name, body) in objectMethods where name != "entity" {
            defineGlobal(name, body)
        }
    }

    func objectMetamethods() -> [(String, LuaFunctionBody)] {
        [
            ("__index", { [unowned self] call in
                let object = try self.object(call, 1)
                let key = try call.string(2)
                if object.entity.attribute(named: key) != nil {
                    do { return call.push(try object.value(forKey: key)) } catch { throw luaError(error) }
                }
                if self.pushMethod(.object, key) { return 1 }
                throw luaError(object.entity.unknownKey(key))
            }),
            ("__newindex", { [unowned self] call in
                let object = try self.object(call, 1)
                let key = try call.string(2)
                guard let value = luaValue(call.state, 3) else {
                    throw LuaError("\(object.entity.name).\(key) cannot hold a \(call.typeName(3))")
                }
                do { try object.setValue(value, forKey: key) } catch { throw luaError(error) }
                return 0
            }),
            ("__tostring", { [unowned self] call in
                let object = try self.object(call, 1)
                let fields = object.values.map { "\($0.key) = \(literal($0.value))" }
                return call.push("\(object.objectID) {\(fields.joined(separator: ", "))}")
            }),
        ]
    }
}

/// A value as Lua source would write it.
func literal(_ value: Value) -> String {
    switch value {
    case .text(let s): return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t") + "\""
    case .date(let d): return "date(\"\(Value.iso8601(d))\")"
    default: return value.displayString
    }
}
