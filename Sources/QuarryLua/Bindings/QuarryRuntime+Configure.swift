import CLua
import CQuarryShim
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarryStore

/// `r:configure{ predicate = ..., args = ..., sort = ..., limit = ..., offset = ..., section = ... }`:
/// every given key at once, so a predicate with more `%@` than the old arguments can
/// come with its arguments (assigning `r.predicate` alone parses it with the old ones),
/// and the request re-runs once: observers of `r` hear one event. A bad value, or a
/// request that does not compile, leaves `r` as it was. `false` clears a key (a table
/// cannot hold nil): no predicate, no limit, offset 0, no sort, no sections.
extension QuarryRuntime {
    static let configureKeys = ["predicate", "args", "sort", "limit", "offset", "section"]

    func configure(_ call: LuaCall) throws -> Int32 {
        let handle = try results(call, 1)
        try call.table(2)
        try Self.checkOptions(call, 2, allowed: Self.configureKeys, operation: "r:configure")
        let s = call.state
        var request = handle.results.request
        var format = handle.format
        var arguments = handle.arguments
        var object = handle.object
        var predicateGiven = false
        var argumentsInPredicate = false

        switch LuaTable.field(s, 2, "predicate") {
        case LUA_TNIL: break
        case LUA_TBOOLEAN where lua_toboolean(s, -1) == 0:
            (format, object, arguments, predicateGiven) = (nil, nil, [], true)
        case LUA_TSTRING:
            (format, object, predicateGiven) = (luaString(s, -1), nil, true)
        case LUA_TTABLE:
            // predicate = { "n > %@", 3 }: format and arguments together, as r.predicate takes.
            let table = lua_gettop(s)
            guard LuaTable.element(s, table, 1) == LUA_TSTRING else {
                quarry_pop(s, 2)
                throw LuaError("predicate = { format, args... } needs the format string first", operation: "r:configure")
            }
            format = luaString(s, -1)
            quarry_pop(s, 1)
            do { arguments = Array(try predicateArguments(s, table, what: "predicate", operation: "r:configure").dropFirst()) } catch {
                quarry_pop(s, 1)
                throw error
            }
            (object, predicateGiven, argumentsInPredicate) = (nil, true, true)
        default:
            guard let given = predicateObject(s, -1) else {
                quarry_pop(s, 1)
                throw OptionError(
                    "predicate", mustBe: "a format string, { format, args... }, a predicate(...) object or false", operation: "r:configure")
            }
            do { try checkPredicateObjectType(s, -1, entity: request.entityName) } catch {
                quarry_pop(s, 1)
                throw error
            }
            (object, format, arguments, predicateGiven) = (given, nil, [], true)
        }
        quarry_pop(s, 1)

        do {
            let argumentsType = LuaTable.field(s, 2, "args")
            defer { quarry_pop(s, 1) }
            if argumentsType != LUA_TNIL {
                if argumentsInPredicate {
                    throw LuaError("give the arguments in predicate = { format, args... } or as args, not both", operation: "r:configure")
                }
                if object != nil {
                    throw LuaError("args: the predicate is an object that holds its arguments; give predicate instead", operation: "r:configure")
                }
                switch argumentsType {
                case LUA_TBOOLEAN where lua_toboolean(s, -1) == 0: arguments = []
                case LUA_TTABLE: arguments = try predicateArguments(s, lua_gettop(s), what: "args", operation: "r:configure")
                default: throw OptionError("args", mustBe: "a table of arguments or false", operation: "r:configure")
                }
                predicateGiven = true
            }
        }
        if predicateGiven {
            request.predicate = try object ?? parsePredicate(format, arguments, handle.variables, entity: request.entityName, exactArguments: false)
        }
        try readConfiguredShape(s, 2, into: &request)

        try handle.results.reconfigure { $0 = request }
        dropCachedObjects(s, results: 1)
        (handle.format, handle.arguments, handle.object) = (format, arguments, object)
        resultsReconfigured(handle)
        return 0
    }

    /// sort, limit, offset and section from the configure table at `index`.
    private func readConfiguredShape(_ s: OpaquePointer, _ index: Int32, into request: inout FetchRequest) throws {
        switch LuaTable.field(s, index, "sort") {
        case LUA_TNIL: quarry_pop(s, 1)
        case LUA_TBOOLEAN where lua_toboolean(s, -1) == 0:
            quarry_pop(s, 1)
            request.sortDescriptors = []
        case LUA_TSTRING:
            defer { quarry_pop(s, 1) }
            request.sortDescriptors = try sortKeys(luaString(s, -1), entity: request.entityName)
        case LUA_TTABLE:
            defer { quarry_pop(s, 1) }
            request.sortDescriptors = try sortList(s, lua_gettop(s), entity: request.entityName)
        default:
            quarry_pop(s, 1)
            throw OptionError("sort", mustBe: "a key, a table of keys or false", operation: "r:configure")
        }
        if let limit = try configuredCount(s, index, "limit") { request.limit = limit }
        if let offset = try configuredCount(s, index, "offset") { request.offset = offset ?? 0 }
        switch LuaTable.field(s, index, "section") {
        case LUA_TNIL: break
        case LUA_TBOOLEAN where lua_toboolean(s, -1) == 0: request.sectionKey = nil
        case LUA_TSTRING: request.sectionKey = SortDescriptor.unescaped(luaString(s, -1))
        default:
            quarry_pop(s, 1)
            throw OptionError("section", mustBe: "a key path string or false", operation: "r:configure")
        }
        quarry_pop(s, 1)
    }

    /// nil: not given; .some(nil): false (none); else the integer.
    private func configuredCount(_ s: OpaquePointer, _ index: Int32, _ key: String) throws -> Int?? {
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, key) {
        case LUA_TNIL: return nil
        case LUA_TBOOLEAN where lua_toboolean(s, -1) == 0: return .some(nil)
        case LUA_TNUMBER where quarry_isinteger(s, -1) != 0: return .some(Int(quarry_tointeger(s, -1, nil)))
        default: throw OptionError(key, mustBe: "an integer or false", operation: "r:configure")
        }
    }
}
