import CLua
import Foundation
import QuarryFormat

/// An export at an interactive prompt says what it wrote where, and when it replaced a
/// file says so: a file overwritten without a word was a newcomer's surprise. It overwrites as
/// before (as sqlite3's `.output`, DuckDB's COPY and pandas do); a script's export says
/// nothing, and standard output (`"-"`) is no file replaced.
extension DataBindings {
    static func luaExportSayingReplaced(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let path = call.type(2) == LUA_TSTRING ? luaString(call.state, 2) : nil
        var isFolder: ObjCBool = false
        let replacing =
            runtime.settings.notesReplacedExports
            && path.map { $0 != "-" && FileManager.default.fileExists(atPath: $0, isDirectory: &isFolder) && !isFolder.boolValue } ?? false
        let pushed = try luaExport(runtime, call)
        // A data export returns how many rows it wrote (a model export writes a folder).
        // Every file written says so, as `.once` and `.export` do: a bare count under the
        // call said neither where nor that it was written (issue 80).
        guard runtime.settings.notesReplacedExports, let path, path != "-", pushed == 1, lua_isinteger(call.state, -1) != 0 else {
            return pushed
        }
        let rows = Int(lua_tointegerx(call.state, -1, nil))
        let replaced = replacing ? " (replaced the file that was there)" : ""
        // Results are objects, as their footer counts them; anything else rows.
        let objects = userdataPayload(call.state, 1, kind: .results) != nil || userdataPayload(call.state, 1, kind: .section) != nil
        let noun = objects ? (rows == 1 ? "object" : "objects") : (rows == 1 ? "row" : "rows")
        runtime.writeNotice("wrote \(grouped(rows)) \(noun) to \(path)\(replaced)")
        return pushed
    }
}
