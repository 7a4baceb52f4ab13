import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

/// The Lua side of save(), rollback(), haschanges(), refresh() and history: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum ContextBindings {
    /// Globals, also fields of `quarry`.
    static let contextLibrary: [LuaBinding] = [
        LuaBinding("save", luaSave),
        LuaBinding("rollback", luaRollback),
        LuaBinding("haschanges", luaHaschanges),
        LuaBinding("refresh", luaRefresh),
        LuaBinding("historytoken", luaHistorytoken),
        LuaBinding("__history", luaHistory),
        LuaBinding("__prune", luaPrune)
    ]

    static func luaSave(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let summary: SaveSummary
        let previousAuthor = runtime.context.author
        if call.type(1) == LUA_TTABLE {
            try QuarryRuntime.checkOptions(call, 1, allowed: ["author", "merge"], operation: "save")
            if let author = try QuarryRuntime.author(call, 1, operation: "save") { runtime.context.author = author }
        } else if !call.isNoneOrNil(1) {
            throw call.typeError(1, expected: "table")
        }
        defer { runtime.context.author = previousAuthor }
        var policy = MergePolicy.error
        if call.type(1) == LUA_TTABLE {
            if LuaTable.field(call.state, 1, "merge") != LUA_TNIL {
                let name = lua_type(call.state, -1) == LUA_TSTRING ? luaString(call.state, -1) : ""
                quarry_pop(call.state, 1)
                guard let parsed = MergePolicy(rawValue: name), parsed != .error else {
                    throw OptionError("merge", mustBe: "\"store\" or \"mine\"", got: "'\(name)'", operation: "save")
                }
                policy = parsed
            } else {
                quarry_pop(call.state, 1)
            }
        }
        runtime.noteObservedRelationships()
        // `updated` counts what `.changes` lists as updated (objects whose own values or
        // links changed), not also the owners a to-one's member left or joined, which
        // observers hear of but whose rows the save does not write: `.changes` said 4
        // and save() 5.
        let listed = runtime.context.pendingUpdates.values
        // save() with nothing to save here while an opened store holds changes: the person
        // most likely meant that store, whose changes stay unsaved.
        if !runtime.context.hasChanges, runtime.focusedStore === runtime.defaultStore {
            let others = runtime.otherStoresWithChanges.map(\.name)
            if !others.isEmpty {
                let holds = others.count == 1 ? "holds" : "hold"
                runtime.writeNotice(
                    "note: the session's store has nothing to save; \(others.joined(separator: ", ")), opened with open(), \(holds) unsaved changes: save(b) with its handle writes them"
                )
            }
        }
        do { summary = try runtime.context.save(merge: policy) } catch let error as StoreError {
            // A database error (disk full, busy) names no operation: say it was save.
            if error.isDatabaseFailure { throw StoreError.during(operation: "save", error) }
            throw error
        }
        for note in runtime.context.takeWriteNotes() { runtime.writeNotice("note: " + note) }
        // Observers hear the save now, each under pcall, before save() returns.
        runtime.deliver()
        lua_settop(call.state, 0)
        lua_createtable(call.state, 0, 3)
        // A row another program deleted meanwhile was not written: its object is deleted.
        let updated = listed.filter { !$0.isDeleted }.count
        for (key, n) in [("inserted", summary.inserted), ("updated", updated), ("deleted", summary.deleted)] {
            lua_pushinteger(call.state, lua_Integer(n))
            LuaTable.setField(call.state, -2, key)
        }
        pushSavedMetatable(runtime, call.state)
        lua_setmetatable(call.state, -2)
        return 1
    }

    /// The metatable of what `save()` returns: its fields stay the plain counts, and
    /// `print(save())` in a script reads `saved: 3 inserted, 1 updated, 0 deleted` where it
    /// printed `table: 0x…`, as the REPL's `=save()` does.
    private static func pushSavedMetatable(_ runtime: QuarryRuntime, _ state: OpaquePointer) {
        let key = "quarry.saved"
        pushRegistryField(state, key)
        if lua_type(state, -1) == LUA_TTABLE { return }
        quarry_pop(state, 1)
        lua_createtable(state, 0, 1)
        runtime.pushFunction("__tostring") { call in
            // Called by hand on something else (`mt.__tostring(5)`): no table to read.
            guard call.type(1) == LUA_TTABLE else { return call.push("saved") }
            let counts = ["inserted", "updated", "deleted"].map { key -> String in
                let type = LuaTable.field(call.state, 1, key)
                defer { quarry_pop(call.state, 1) }
                let n = type == LUA_TNUMBER && quarry_isinteger(call.state, -1) != 0 ? String(quarry_tointeger(call.state, -1, nil)) : "?"
                return "\(n) \(key)"
            }
            return call.push("saved: " + counts.joined(separator: ", "))
        }
        LuaTable.setField(state, -2, "__tostring")
        lua_pushvalue(state, -1)
        setRegistryField(state, key)
    }

    static func luaRollback(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        // What it drops, said at the prompt (read before the changes go).
        let dropped = runtime.context.pendingChangesSummary
        // Observers hear what went back before rollback() returns, as for save().
        runtime.noteObservedRelationships()
        runtime.rolledBack(runtime.context.rollback())
        if runtime.settings.notesRollback { runtime.writeNotice(dropped.map { "rolled back \($0)" } ?? "nothing to roll back") }
        lua_settop(call.state, 0)
        return 0
    }

    static func luaHaschanges(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        call.push(runtime.context.hasChanges)
    }

    static func luaRefresh(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        // refresh(o), as o:refresh(): that object only.
        if call.argumentCount >= 1, call.type(1) != LUA_TNIL {
            let object = try runtime.currentObject(call, 1)
            return call.push(try runtime.context.refresh(object))
        }
        let changed: Bool
        changed = try runtime.context.refreshFromStore(asked: true)
        runtime.deliver()
        lua_settop(call.state, 0)
        return call.push(changed)
    }

    static func luaHistorytoken(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        return call.push(Int(try runtime.context.historyToken()))
    }

    static func luaHistory(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        var since: Int64?
        var author: String?
        if call.type(1) == LUA_TTABLE {
            try QuarryRuntime.checkOptions(call, 1, allowed: ["since", "author"], operation: "history")
            switch LuaTable.field(call.state, 1, "since") {
            case LUA_TNIL: break
            case LUA_TNUMBER where quarry_isinteger(call.state, -1) != 0: since = quarry_tointeger(call.state, -1, nil)
            default:
                quarry_pop(call.state, 1)
                throw OptionError("since", mustBe: "a token from historytoken()", operation: "history")
            }
            quarry_pop(call.state, 1)
            author = try QuarryRuntime.author(call, 1, operation: "history")
        }
        let transactions: [HistoryTransaction]
        transactions = try runtime.context.history(since: since, author: author)
        // An empty list from a file another program made is no "nothing happened": said once.
        if transactions.isEmpty, !runtime.historyNoteSaid, ForeignFileNotes.isForeignFile(runtime.context) {
            runtime.historyNoteSaid = true
            runtime.writeNotice("note: " + ForeignFileNotes.noHistory)
        }
        let s = call.state
        lua_createtable(s, Int32(transactions.count), 0)
        for (i, t) in transactions.enumerated() {
            lua_createtable(s, 0, 6)
            lua_pushinteger(s, lua_Integer(t.token))
            LuaTable.setField(s, -2, "token")
            pushValue(s, .date(t.time))
            LuaTable.setField(s, -2, "time")
            pushValue(s, t.author.map(Value.text) ?? .null)
            LuaTable.setField(s, -2, "author")
            for (field, ids) in [("inserted", t.inserted), ("updated", t.updated), ("deleted", t.deleted)] {
                lua_createtable(s, Int32(ids.count), 0)
                for (j, id) in ids.enumerated() {
                    pushString(s, id)
                    lua_rawseti(s, -2, lua_Integer(j + 1))
                }
                LuaTable.setField(s, -2, field)
            }
            lua_rawseti(s, -2, lua_Integer(i + 1))
        }
        return 1
    }

    static func luaPrune(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let token = try call.integer(1)
        return call.push(try runtime.context.pruneHistory(through: token))
    }
}
