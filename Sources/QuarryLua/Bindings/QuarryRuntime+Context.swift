import CLua
import CQuarryShim
import QuarryStore

extension QuarryRuntime {
    func installContextFunctions() {
        defineGlobal("save") { [unowned self] call in
            let summary: SaveSummary
            let previousAuthor = self.context.author
            if call.type(1) == LUA_TTABLE {
                try Self.checkOptions(call, 1, allowed: ["author", "merge"], operation: "save")
                if let author = try Self.author(call, 1, operation: "save") { self.context.author = author }
            } else if !call.isNoneOrNil(1) {
                throw call.typeError(1, expected: "table")
            }
            defer { self.context.author = previousAuthor }
            var policy = MergePolicy.error
            if call.type(1) == LUA_TTABLE {
                if LuaTable.field(call.state, 1, "merge") != LUA_TNIL {
                    let name = lua_type(call.state, -1) == LUA_TSTRING ? luaString(call.state, -1) : ""
                    quarry_pop(call.state, 1)
                    guard let parsed = MergePolicy(rawValue: name), parsed != .error else {
                        throw LuaError("merge must be \"store\" or \"mine\", got '\(name)'", operation: "save")
                    }
                    policy = parsed
                } else {
                    quarry_pop(call.state, 1)
                }
            }
            do { summary = try self.context.save(merge: policy) } catch let error as StoreError {
                // A database error (disk full, busy) names no operation: say it was save.
                if error.isDatabaseFailure { throw StoreError.during(operation: "save", error) }
                throw error
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
        defineGlobal("rollback") { [unowned self] call in
            // Observers hear what went back before rollback() returns, as for save().
            self.rolledBack(self.context.rollback())
            lua_settop(call.state, 0)
            return 0
        }
        defineGlobal("haschanges") { [unowned self] call in
            call.push(self.context.hasChanges)
        }
        defineGlobal("refresh") { [unowned self] call in
            // refresh(o), as o:refresh(): that object only.
            if call.argumentCount >= 1, call.type(1) != LUA_TNIL {
                let object = try self.currentObject(call, 1)
                return call.push(try self.context.refresh(object))
            }
            let changed: Bool
            changed = try self.context.refreshFromStore()
            self.deliver()
            lua_settop(call.state, 0)
            return call.push(changed)
        }
        defineGlobal("historytoken") { [unowned self] call in
            return call.push(Int(try self.context.historyToken()))
        }
        defineGlobal("__history") { [unowned self] call in
            var since: Int64?
            var author: String?
            if call.type(1) == LUA_TTABLE {
                try Self.checkOptions(call, 1, allowed: ["since", "author"], operation: "history")
                switch LuaTable.field(call.state, 1, "since") {
                case LUA_TNIL: break
                case LUA_TNUMBER where quarry_isinteger(call.state, -1) != 0: since = quarry_tointeger(call.state, -1, nil)
                default: quarry_pop(call.state, 1); throw LuaError("since must be a token from historytoken()", operation: "history")
                }
                quarry_pop(call.state, 1)
                author = try Self.author(call, 1, operation: "history")
            }
            let transactions: [HistoryTransaction]
            transactions = try self.context.history(since: since, author: author)
            let s = call.state
            lua_createtable(s, Int32(transactions.count), 0)
            for (i, t) in transactions.enumerated() {
                lua_createtable(s, 0, 6)
                lua_pushinteger(s, lua_Integer(t.token)); LuaTable.setField(s, -2, "token")
                pushValue(s, .date(t.time)); LuaTable.setField(s, -2, "time")
                pushValue(s, t.author.map(Value.text) ?? .null); LuaTable.setField(s, -2, "author")
                for (field, ids) in [("inserted", t.inserted), ("updated", t.updated), ("deleted", t.deleted)] {
                    lua_createtable(s, Int32(ids.count), 0)
                    for (j, id) in ids.enumerated() { pushString(s, id); lua_rawseti(s, -2, lua_Integer(j + 1)) }
                    LuaTable.setField(s, -2, field)
                }
                lua_rawseti(s, -2, lua_Integer(i + 1))
            }
            return 1
        }
        defineGlobal("__prune") { [unowned self] call in
            let token = try call.integer(1)
            return call.push(try self.context.pruneHistory(through: token))
        }
    }

    /// `t.author` of an options table: nil when absent, else a string without NUL bytes
    /// (history keeps text, and C strings would cut it at the first NUL); anything else is
    /// refused rather than ignored, so a mistyped author is never recorded as `quarry`.
    static func author(_ call: LuaCall, _ index: Int32, operation: String) throws -> String? {
        let s = call.state
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, "author") {
        case LUA_TNIL: return nil
        case LUA_TSTRING:
            let author = luaString(s, -1)
            guard !author.utf8.contains(0) else { throw LuaError("author must be a string without NUL bytes", operation: operation) }
            return author
        default:
            throw LuaError("author must be a string, got \(call.typeName(-1))", operation: operation)
        }
    }

    /// Refuses a key of an options table that `operation` does not take, with the nearest
    /// one it does, as `fetch{}` does.
    static func checkOptions(_ call: LuaCall, _ index: Int32, allowed: [String], operation: String) throws {
        let (keys, nonString) = LuaTable.stringKeys(call.state, index)
        for key in keys where !allowed.contains(key) {
            throw LuaError("unknown option '\(key)'", operation: operation, suggestion: closestMatch(to: key, in: allowed),
                           remedy: "options: " + allowed.joined(separator: ", "))
        }
        if nonString { throw LuaError("options are named (" + allowed.joined(separator: ", ") + "), not listed", operation: operation) }
    }
}
