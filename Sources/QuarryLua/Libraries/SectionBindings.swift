import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryStore

/// The Lua side of sections' metamethods: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum SectionBindings {
    static let sectionMetamethods: [LuaBinding] = [
        LuaBinding("__len", luaSectionLen),
        LuaBinding("__index", luaSectionIndex),
        LuaBinding("__tostring", luaSectionTostring),
        LuaBinding("__quarry_snapshot", luaSectionWalk)
    ]

    /// What `ipairs(sec)` walks: the section's objects as they were when the loop began,
    /// as results walk theirs (`ResultsBindings.luaResultsWalk`).
    static func luaSectionWalk(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let section = try runtime.section(call, 1)
        // A section of a walk walks as its results began.
        if section.walk != nil {
            lua_pushvalue(call.state, 1)
            return 1
        }
        let walk = SectionHandle(results: section.results, info: section.info)
        walk.walk = try section.results.results.beginWalk()
        pushSwiftObject(call.state, walk, kind: .section)
        return 1
    }

    static func luaSectionLen(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        call.push(try runtime.section(call, 1).info.count)
    }

    static func luaSectionIndex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let section = try runtime.section(call, 1)
        if call.type(2) == LUA_TNUMBER {
            let j = try call.integer(2)
            guard j >= 1, j <= section.info.count else { return call.pushNil() }
            let results = section.results.results
            let index = section.info.start + Int(j - 1)
            if let walk = section.walk, results.hasMoved(since: walk) { return runtime.pushObject(try results.object(at: index, in: walk)) }
            // As results do (see `r[i]`): the rows of the batch that fall in this
            // section, cached on the section for C to answer from.
            if try results.servesRows() {
                guard let (start, rows) = try results.rows(around: index) else { return call.pushNil() }
                let end = section.info.start + section.info.count
                let window = max(0, section.info.start - start)..<max(0, min(rows.keys.count, end - start))
                cacheBatchObjects(call.state, results: 1, rows, window: window, first: start + window.lowerBound - section.info.start + 1)
                lua_rawgeti(call.state, -1, lua_Integer(index - start - window.lowerBound + 1))
                return 1
            }
            return runtime.pushObject(try results.object(at: index))
        }
        switch try call.string(2) {
        case "id": return call.push(section.info.id)
        // Lua's strings are bytes: text that is not UTF-8 is named by its bytes as stored
        // (`name` is for printing; its escapes are for a terminal).
        case "name":
            if case .textBytes = section.info.id { return call.push(section.info.id) }
            return call.push(section.info.name)
        case let key: throw LuaError("sections have no field '\(key)' (fields: id, name; #sec and sec[j] give the objects)")
        }
    }

    static func luaSectionTostring(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let section = try runtime.section(call, 1)
        return call.push(try ResultsTable(section.results.results, format: runtime.tableFormat).render(section: section.info))
    }
}
