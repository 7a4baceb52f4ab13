import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryStore

/// One section of sectioned results, as Lua holds it.
final class SectionHandle {
    let results: ResultsHandle
    let info: SectionInfo
    init(results: ResultsHandle, info: SectionInfo) { self.results = results; self.info = info }
}

extension QuarryRuntime {
    func sections(_ handle: ResultsHandle) throws -> [SectionInfo] {
        return try handle.results.sections()
    }

    /// `r[i]` of sectioned results.
    func pushSection(_ handle: ResultsHandle, _ index: Int64) throws -> Int32 {
        let all = try sections(handle)
        guard index >= 1, index <= all.count else { lua_pushnil(state); return 1 }
        pushSwiftObject(state, SectionHandle(results: handle, info: all[Int(index - 1)]), kind: .section)
        return 1
    }

    private func section(_ call: LuaCall, _ index: Int32) throws -> SectionHandle {
        guard let handle = swiftObject(call.state, index, kind: .section, as: SectionHandle.self) else {
            throw call.typeError(index, expected: "section")
        }
        return handle
    }

    func sectionMetamethods() -> [(String, LuaFunctionBody)] {
        [
            ("__len", { [unowned self] call in call.push(try self.section(call, 1).info.count) }),
            ("__index", { [unowned self] call in
                let section = try self.section(call, 1)
                if call.type(2) == LUA_TNUMBER {
                    let j = try call.integer(2)
                    guard j >= 1, j <= section.info.count else { return call.pushNil() }
                    let results = section.results.results, index = section.info.start + Int(j - 1)
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
                    return self.pushObject(try results.object(at: index))
                }
                switch try call.string(2) {
                case "id": return call.push(section.info.id)
                case "name": return call.push(section.info.name)
                case let key: throw LuaError("sections have no field '\(key)' (fields: id, name; #sec and sec[j] give the objects)")
                }
            }),
            ("__tostring", { [unowned self] call in
                let section = try self.section(call, 1)
                return call.push(try ResultsTable(section.results.results, format: self.tableFormat).render(section: section.info))
            }),
        ]
    }
}
