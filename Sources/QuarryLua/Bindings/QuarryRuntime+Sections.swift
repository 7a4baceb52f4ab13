import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryStore

/// One section of sectioned results, as Lua holds it.
final class SectionHandle {
    let results: ResultsHandle
    let info: SectionInfo
    /// For the section `ipairs` walks (`luaSectionWalk`): where the walk began.
    var walk: ResultsWalk?
    init(results: ResultsHandle, info: SectionInfo) {
        self.results = results
        self.info = info
    }
}

extension QuarryRuntime {
    func sections(_ handle: ResultsHandle) throws -> [SectionInfo] {
        return try handle.results.sections()
    }

    /// `r[i]` of sectioned results.
    /// Section `index` (1-based) of the results; of a walk, as they were when it began,
    /// each walking its objects as they were too.
    func pushSection(_ handle: ResultsHandle, _ index: Int64) throws -> Int32 {
        let all = try handle.walkSections ?? sections(handle)
        guard index >= 1, index <= all.count else {
            lua_pushnil(state)
            return 1
        }
        let section = SectionHandle(results: handle, info: all[Int(index - 1)])
        section.walk = handle.walk
        pushSwiftObject(state, section, kind: .section)
        return 1
    }

    func section(_ call: LuaCall, _ index: Int32) throws -> SectionHandle {
        guard let handle = swiftObject(call.state, index, kind: .section, as: SectionHandle.self) else {
            throw call.typeError(index, expected: "section")
        }
        return handle
    }
}
