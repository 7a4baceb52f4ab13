import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryPredicates
import QuarryStore

extension QuarryRuntime {
    func pushConfiguration(_ handle: ResultsHandle, _ key: String, _ call: LuaCall) throws -> Int32 {
        let request = handle.results.request
        switch key {
        case "predicate":
            if let object = handle.object {
                pushSwiftObject(call.state, PredicateHandle(object), kind: .predicate)
                return 1
            }
            return handle.format.map { call.push($0) } ?? call.pushNil()
        case "args":
            LuaTable.pushList(call.state, handle.arguments) { pushArgument(call.state, $0) }
            return 1
        case "sort":
            lua_createtable(call.state, Int32(request.sortDescriptors.count), 0)
            for (i, sort) in request.sortDescriptors.enumerated() {
                if sort.comparison == .binary {
                    pushString(call.state, (sort.ascending ? "" : "-") + sort.key)
                } else {
                    lua_createtable(call.state, 1, 2)
                    pushString(call.state, sort.key)
                    lua_rawseti(call.state, -2, 1)
                    lua_pushboolean(call.state, sort.ascending ? 1 : 0)
                    LuaTable.setField(call.state, -2, "ascending")
                    pushString(call.state, sort.comparison.rawValue)
                    LuaTable.setField(call.state, -2, "compare")
                }
                lua_rawseti(call.state, -2, lua_Integer(i + 1))
            }
            return 1
        case "limit": return request.limit.map { call.push($0) } ?? call.pushNil()
        case "offset": return call.push(request.offset)
        case "entity": return pushEntity(request.entityName)
        case "section": return request.sectionKey.map { call.push($0) } ?? call.pushNil()
        case "objects":
            pushHelper("objects")
            return 1
        default:
            let known = ["configure", "first", "ids", "totable", "objects", "predicate", "args", "sort", "limit", "offset", "entity", "section"]
            // `r:count()`, `r:len()`, typed from other languages' habits: Lua's `#` counts.
            if ["count", "len", "length", "size"].contains(key.lowercased()) {
                throw LuaError(
                    "results have no field or method '\(key)'; #r is how many they hold (count(\"\(request.entityName)\", ...) counts without fetching)"
                )
            }
            // `r:sections()`, as NSFetchedResultsController has `sections`: sectioned
            // results are their sections ("did you mean 'section'?" named the key instead).
            if key.lowercased() == "sections" {
                throw LuaError(
                    request.sectionKey == nil
                        ? "results have no field or method '\(key)'; fetch{ \"\(request.entityName)\", section = \"key\" } gives sectioned results, "
                            + "whose #r counts the sections and r[i] is one (.id, .name, its objects)"
                        : "results have no field or method '\(key)'; sectioned results are their sections: #r counts them, r[i] is one "
                            + "(.id, .name, its objects), r:objects() walks every object")
            }
            throw LuaError("results have no field or method '\(key)'", suggestion: closestMatch(to: key, in: known))
        }
    }

    /// `r.predicate = ...` and friends: the request re-runs; a bad value leaves it as it was.
    func reconfigure(_ handle: ResultsHandle, key: String, _ call: LuaCall) throws {
        let s = call.state
        var format = handle.format
        var arguments = handle.arguments
        switch key {
        case "predicate":
            if let object = predicateObject(s, 3) {
                try checkPredicateObjectType(s, 3, entity: handle.results.request.entityName)
                try handle.results.reconfigure { $0.predicate = object }
                (handle.object, handle.format, handle.arguments) = (object, nil, [])
                return
            }
            if call.type(3) == LUA_TTABLE {
                // r.predicate = { "n > %@", 3 }: format and arguments at once.
                guard LuaTable.element(s, 3, 1) == LUA_TSTRING else {
                    quarry_pop(s, 1)
                    throw LuaError("r.predicate = { format, args... } needs the format string first")
                }
                format = luaString(s, -1)
                quarry_pop(s, 1)
                arguments = Array(try predicateArguments(s, 3, what: "r.predicate").dropFirst())
            } else {
                format = try call.optionalString(3)
            }
        case "args":
            if handle.object != nil {
                throw LuaError("r.args: the predicate is an object that holds its arguments; assign r.predicate instead")
            }
            if call.isNoneOrNil(3) {
                arguments = []
            } else {
                try call.table(3)
                arguments = try predicateArguments(s, 3, what: "r.args")
            }
        case "sort":
            let sort: [SortDescriptor]
            switch call.type(3) {
            case LUA_TNIL: sort = []
            case LUA_TSTRING: sort = try sortKeys(try call.string(3), entity: handle.results.request.entityName)
            case LUA_TTABLE: sort = try sortList(s, 3, entity: handle.results.request.entityName)
            default: throw call.typeError(3, expected: "sort key or table")
            }
            try handle.results.reconfigure { $0.sortDescriptors = sort }
            return
        case "section":
            let key = try call.optionalString(3)
            try handle.results.reconfigure { $0.sectionKey = key }
            return
        case "limit", "offset":
            let n: Int? = call.isNoneOrNil(3) ? nil : Int(try call.integer(3))
            try handle.results.reconfigure {
                if key == "limit" { $0.limit = n } else { $0.offset = n ?? 0 }
            }
            return
        default:
            throw LuaError("results: '\(key)' cannot be assigned (assign predicate, args, sort, limit, offset or section)")
        }
        let predicate: Predicate?
        do {
            predicate = try parsePredicate(format, arguments, handle.variables, entity: handle.results.request.entityName, exactArguments: false)
        } catch var error as PredicateTextError where error.error.kind == .argument && key == "predicate" && error.error.remedy == nil {
            // `r.predicate = "name CONTAINS %@"` re-runs before `r.args = {...}` can follow.
            error.error.remedy = "give its arguments with it: r.predicate = { format, args... }, or r:configure{ predicate = ..., args = { ... } }"
            throw error
        }
        try handle.results.reconfigure { $0.predicate = predicate }
        handle.format = format
        handle.arguments = arguments
        handle.object = nil
    }
}
