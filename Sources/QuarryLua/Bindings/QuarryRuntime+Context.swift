import CLua
import CQuarryShim
import QuarryStore

extension QuarryRuntime {
    func installContextFunctions() {
        defineGlobal("save") { [unowned self] call in
            let summary: SaveSummary
            do { summary = try self.context.save() } catch let error as StoreError {
                if case .database(let message) = error { throw LuaError("save: " + message) }
                throw luaError(error)
            }
            // Observers hear the save now, each under pcall, before save() returns.
            self.deliver()
            lua_settop(call.state, 0)
            lua_createtable(call.state, 0, 3)
            for (key, n) in [("inserted", summary.inserted), ("updated", summary.updated), ("deleted", summary.deleted)] {
                lua_pushinteger(call.state, lua_Integer(n))
                LuaTable.setField(call.state, -2, key)
            }
            return 1
        }
        defineGlobal("rollback") { [unowned self] _ in
            self.context.rollback()
            return 0
        }
        defineGlobal("haschanges") { [unowned self] call in
            call.push(self.context.hasChanges)
        }
    }
}
