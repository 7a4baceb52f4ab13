import CLua
import CQuarryShim
import QuarryFetch
import QuarryPredicates
import QuarryStore

/// Results as Lua sees them: the live results plus the request as the script wrote it
/// (format string and arguments), so `r.args = {...}` can re-run it.
final class ResultsHandle {
    var results: FetchResults
    var format: String?
    var arguments: [PredicateArgument]
    var variables: [String: PredicateArgument]
    init(results: FetchResults, format: String?, arguments: [PredicateArgument], variables: [String: PredicateArgument]) {
        self.results = results; self.format = format; self.arguments = arguments; self.variables = variables
    }
}

/// A request as read from Lua, before it runs.
struct LuaRequest {
    var request: FetchRequest
    var format: String?
    var arguments: [PredicateArgument]
    var variables: [String: PredicateArgument]
}

extension QuarryRuntime {
    func installFetchFunctions() {
        defineGlobal("fetch") { [unowned self] call in
            try self.pushResults(try self.request(call, from: 1, entity: nil))
        }
        defineGlobal("count") { [unowned self] call in
            let request = try self.request(call, from: 1, entity: nil)
            do { return call.push(try self.context.count(request.request)) } catch { throw luaError(error) }
        }
        registerMethods(.results, [
            ("first", { [unowned self] call in
                let handle = try self.results(call, 1)
                do { return self.pushObject(try handle.results.object(at: 0)) } catch { throw luaError(error) }
            }),
            ("ids", { [unowned self] call in
                let objects = try self.allObjects(try self.results(call, 1))
                lua_createtable(call.state, Int32(objects.count), 0)
                for (i, object) in objects.enumerated() {
                    pushString(call.state, object.objectID)
                    lua_rawseti(call.state, -2, lua_Integer(i + 1))
                }
                return 1
            }),
            ("totable", { [unowned self] call in
                let objects = try self.allObjects(try self.results(call, 1))
                lua_createtable(call.state, Int32(objects.count), 0)
                for (i, object) in objects.enumerated() {
                    _ = self.pushObject(object)
                    lua_rawseti(call.state, -2, lua_Integer(i + 1))
                }
                return 1
            }),
        ])
    }

    private func allObjects(_ handle: ResultsHandle) throws -> [ManagedObject] {
        do { return try handle.results.objects() } catch { throw luaError(error) }
    }

    func results(_ call: LuaCall, _ index: Int32) throws -> ResultsHandle {
        guard let handle = swiftObject(call.state, index, kind: .results, as: ResultsHandle.self) else {
            throw call.typeError(index, expected: "results")
        }
        return handle
    }

    func pushResults(_ request: LuaRequest) throws -> Int32 {
        let results: FetchResults
        do { results = try context.fetch(request.request) } catch { throw luaError(error) }
        let handle = ResultsHandle(results: results, format: request.format, arguments: request.arguments, variables: request.variables)
        pushSwiftObject(state, handle, kind: .results)
        return 1
    }

    /// Reads `("Item", "pred", args...)` or `{ "Item", predicate = ..., args = {...}, ... }`
    /// starting at argument `first`; `entity` is given when a handle's method calls.
    func request(_ call: LuaCall, from first: Int32, entity: String?) throws -> LuaRequest {
        if call.type(first) == LUA_TTABLE {
            return try tableRequest(call, at: first, entity: entity)
        }
        var index = first
        let entityName: String
        if let entity { entityName = entity } else { entityName = try call.string(index); index += 1 }
        let format = try call.optionalString(index)
        let arguments = try call.predicateArguments(from: index + 1)
        return try makeRequest(entityName, format: format, arguments: arguments, variables: [:])
    }

    private func makeRequest(_ entity: String, format: String?, arguments: [PredicateArgument], variables: [String: PredicateArgument]) throws -> LuaRequest {
        var request = FetchRequest(entityName: entity)
        request.predicate = try parsePredicate(format, arguments, variables)
        return LuaRequest(request: request, format: format, arguments: arguments, variables: variables)
    }

    func parsePredicate(_ format: String?, _ arguments: [PredicateArgument], _ variables: [String: PredicateArgument]) throws -> Predicate? {
        guard let format else { return nil }
        do {
            return try PredicateParser.parse(format, arguments: PredicateArguments(arguments: arguments, variables: variables))
        } catch { throw luaError(error) }
    }

    private func tableRequest(_ call: LuaCall, at index: Int32, entity: String?) throws -> LuaRequest {
        let s = call.state
        let allowed: Set<String> = ["entity", "predicate", "args", "vars", "sort", "limit", "offset", "batch"]
        let (keys, _) = LuaTable.stringKeys(s, index)
        for key in keys where !allowed.contains(key) {
            if key == "section" || key == "result" || key == "properties" || key == "group" || key == "having" || key == "prefetch" {
                throw LuaError("fetch: '\(key)' is not supported yet")
            }
            let hint = closestMatch(to: key, in: Array(allowed)).map { " (did you mean '\($0)'?)" } ?? ""
            throw LuaError("fetch: unknown option '\(key)'\(hint)")
        }
        var entityName = entity
        if entityName == nil {
            if LuaTable.element(s, index, 1) == LUA_TSTRING { entityName = luaString(s, -1) }
            quarry_pop(s, 1)
        }
        if entityName == nil {
            if LuaTable.field(s, index, "entity") == LUA_TSTRING { entityName = luaString(s, -1) }
            quarry_pop(s, 1)
        }
        guard let entityName else { throw LuaError("fetch: the request names no entity; write fetch{ \"Item\", ... }") }

        var format: String?
        switch LuaTable.field(s, index, "predicate") {
        case LUA_TNIL: break
        case LUA_TSTRING: format = luaString(s, -1)
        default: quarry_pop(s, 1); throw LuaError("fetch: predicate must be a format string")
        }
        quarry_pop(s, 1)
        let arguments = try argumentField(s, index, "args")
        var variables: [String: PredicateArgument] = [:]
        if LuaTable.field(s, index, "vars") == LUA_TTABLE {
            let table = lua_gettop(s)
            for key in LuaTable.stringKeys(s, table).keys {
                LuaTable.field(s, table, key)
                defer { quarry_pop(s, 1) }
                guard let value = predicateArgument(s, -1) else { throw LuaError("fetch: vars.\(key) must be a value or a list of values") }
                variables[key] = value
            }
        }
        quarry_pop(s, 1)
        var request = try makeRequest(entityName, format: format, arguments: arguments, variables: variables)
        request.request.sortDescriptors = try sortDescriptors(s, index)
        request.request.limit = try optionalCount(s, index, "limit")
        request.request.offset = try optionalCount(s, index, "offset") ?? 0
        if let batch = try optionalCount(s, index, "batch"), batch > 0 { request.request.batchSize = batch }
        return request
    }

    /// `t[key]`, a table of predicate arguments, or none.
    private func argumentField(_ s: OpaquePointer, _ index: Int32, _ key: String) throws -> [PredicateArgument] {
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, key) {
        case LUA_TNIL: return []
        case LUA_TTABLE: return try predicateArguments(s, lua_gettop(s), what: "fetch: \(key)")
        default: throw LuaError("fetch: \(key) must be a table")
        }
    }

    private func optionalCount(_ s: OpaquePointer, _ index: Int32, _ key: String) throws -> Int? {
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, key) {
        case LUA_TNIL: return nil
        case LUA_TNUMBER where quarry_isinteger(s, -1) != 0: return Int(quarry_tointeger(s, -1, nil))
        default: throw LuaError("fetch: \(key) must be an integer")
        }
    }

    /// `sort = "key"`, `sort = { "a", "-b", { "c", ascending = false, compare = "caseInsensitive" } }`.
    func sortDescriptors(_ s: OpaquePointer, _ index: Int32) throws -> [SortDescriptor] {
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, "sort") {
        case LUA_TNIL: return []
        case LUA_TSTRING: return [SortDescriptor(parsing: luaString(s, -1))]
        case LUA_TTABLE: return try sortList(s, lua_gettop(s))
        default: throw LuaError("fetch: sort must be a key, or a table of keys")
        }
    }

    func sortList(_ s: OpaquePointer, _ table: Int32) throws -> [SortDescriptor] {
        try LuaTable.array(s, table) { i in
            let item = lua_gettop(s)
            switch lua_type(s, item) {
            case LUA_TSTRING: return SortDescriptor(parsing: luaString(s, item))
            case LUA_TTABLE:
                guard LuaTable.element(s, item, 1) == LUA_TSTRING else {
                    quarry_pop(s, 1)
                    throw LuaError("sort: entry \(i) needs its key first, as { \"title\", ascending = true }")
                }
                var descriptor = SortDescriptor(parsing: luaString(s, -1))
                quarry_pop(s, 1)
                if LuaTable.field(s, item, "ascending") != LUA_TNIL { descriptor.ascending = lua_toboolean(s, -1) != 0 }
                quarry_pop(s, 1)
                if LuaTable.field(s, item, "compare") != LUA_TNIL {
                    let name = lua_type(s, -1) == LUA_TSTRING ? luaString(s, -1) : ""
                    quarry_pop(s, 1)
                    guard let comparison = SortDescriptor.Comparison(rawValue: name) else {
                        throw LuaError("sort: compare must be \"binary\", \"caseInsensitive\" or \"localized\", got '\(name)'")
                    }
                    descriptor.comparison = comparison
                } else {
                    quarry_pop(s, 1)
                }
                return descriptor
            default:
                throw LuaError("sort: entry \(i) must be a key or a table")
            }
        }
    }
}
