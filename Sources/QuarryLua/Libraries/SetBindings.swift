import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryPredicates
import QuarryStore

/// The Lua side of to-many relationship sets' methods and metamethods: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum SetBindings {
    /// Methods, found through `__index`.
    static let setMethods: [LuaBinding] = [
        LuaBinding("add", luaSetAdd),
        LuaBinding("remove", luaSetRemove),
        LuaBinding("contains", luaSetContains),
        LuaBinding("insert", luaSetInsert),
        LuaBinding("move", luaSetMove)
    ]

    static func luaSetAdd(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let set = try runtime.set(call, 1)
        let target = try runtime.currentObject(call, 2)
        try runtime.context.addRelated(target, to: set.name, of: set.object)
        return 0
    }

    static func luaSetRemove(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let set = try runtime.set(call, 1)
        let target = try runtime.currentObject(call, 2)
        try runtime.context.removeRelated(target, from: set.name, of: set.object)
        return 0
    }

    /// `s:insert(i, x)`: an ordered relationship's member added at position i.
    static func luaSetInsert(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let set = try runtime.set(call, 1)
        let position = try call.integer(2)
        let target = try runtime.currentObject(call, 3)
        try runtime.context.insertRelated(target, at: position, to: set.name, of: set.object)
        return 0
    }

    /// `s:move(from, to)`: an ordered relationship's member moved to another position.
    static func luaSetMove(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let set = try runtime.set(call, 1)
        let from = try call.integer(2)
        let to = try call.integer(3)
        try runtime.context.moveRelated(from: from, to: to, in: set.name, of: set.object)
        return 0
    }

    static func luaSetContains(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let set = try runtime.set(call, 1)
        let target = try runtime.object(call, 2)
        return call.push(try runtime.members(set).contains { $0 === target })
    }

    /// The REPL shows a to-many as results are shown, a table of its members (the
    /// prelude's quarry.show); `print` and `tostring` keep their IDs.
    static let setLibrary: [LuaBinding] = [
        LuaBinding("__settable", luaSetTable)
    ]

    /// The members of an unordered to-many as a results table (fetched by `SELF IN`, so
    /// unsaved members are in it and its rows come as a fetch sorts them); nil for an
    /// ordered one, whose order a fetch would lose, or one of no member.
    static func luaSetTable(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let set = try runtime.set(call, 1)
        guard let context = set.object.managedObjectContext,
            let destination = set.object.entity.relationship(named: set.name)?.destination,
            !context.keepsOrder(set.name, of: set.object.entity.name)
        else { return call.pushNil() }
        let members = try runtime.members(set)
        guard !members.isEmpty else { return call.pushNil() }
        let arguments = PredicateArguments(arguments: [.objects(members.map(ObjectReference.init))], variables: [:])
        let request = FetchRequest(entityName: destination, predicate: try PredicateParser.parse("SELF IN %@", arguments: arguments))
        let results = try request.execute(in: context)
        return call.push(try ResultsTable(results, format: runtime.tableFormat).render())
    }

    static let setMetamethods: [LuaBinding] = [
        LuaBinding("__len", luaSetLen),
        LuaBinding("__index", luaSetIndex),
        LuaBinding("__tostring", luaSetTostring),
        LuaBinding("__quarry_snapshot", luaSetSnapshot)
    ]

    /// What `ipairs(s)` iterates: the members as they are when the loop starts, so that
    /// deleting or removing members inside it skips none (see quarry_install_ipairs).
    static func luaSetSnapshot(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let all = try runtime.members(try runtime.set(call, 1))
        lua_createtable(call.state, Int32(clamping: all.count), 0)
        for (i, object) in all.enumerated() {
            _ = runtime.pushObject(object)
            lua_rawseti(call.state, -2, lua_Integer(i + 1))
        }
        return 1
    }

    static func luaSetLen(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        call.push(try runtime.members(try runtime.set(call, 1)).count)
    }

    static func luaSetIndex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let set = try runtime.set(call, 1)
        if call.type(2) == LUA_TNUMBER {
            let i = try call.integer(2)
            let all = try runtime.members(set)
            guard i >= 1, i <= all.count else { return call.pushNil() }
            return runtime.pushObject(all[Int(i - 1)])
        }
        let key = try call.string(2)
        if runtime.pushMethod(.set, key) { return 1 }
        throw LuaError(
            "sets have no method '\(key)' (methods: add, remove, contains, and insert, move for an ordered one; #s and s[i] give the objects)")
    }

    /// The most members a to-many prints whole.
    static let shownMembers = 10

    static func luaSetTostring(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let set = try runtime.set(call, 1)
        let ids = try runtime.members(set).map(\.objectID)
        // A large to-many printed whole flooded the screen (a station's 5,000 readings):
        // past `shownMembers` its first few and how many there are. IDs, as a to-one and
        // every other object reference print; Quarry has no display name to guess at.
        let listed =
            ids.count <= shownMembers
            ? ids.joined(separator: ", ")
            : ids.prefix(shownMembers / 2).joined(separator: ", ") + ", … \(ids.count - shownMembers / 2) more, \(ids.count) in all"
        return call.push(ErrorRendering.escaped("\(set.object.objectID).\(set.name) {\(listed)}"))
    }
}
