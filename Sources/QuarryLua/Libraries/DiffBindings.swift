import CLua
import CQuarryShim
import QuarryFetch
import QuarryModel
import QuarryStore

/// The Lua side of `diff`: what changed between two stores, entities or models, as rows
/// marked `+`, `-` and `~`. The comparing runs in QuarryFetch (`StoreDiff`) and
/// QuarryModelFiles (`ModelDifference`); this reads the arguments and pushes the rows.
enum DiffBindings {
    /// Globals, also fields of `quarry`.
    static let diffLibrary: [LuaBinding] = [
        LuaBinding("diff", luaDiff)
    ]

    static func luaDiff(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let (rows, caption) = try runtime.diffRows(call)
        pushDictionaryRows(call.state, DictionaryRows(columns: rows.columns, rows: rows.rows))
        // Which way it reads, above its printed table.
        rememberCaption(call.state, -1, caption)
        // An object's key is what a person copies: printed whole, as a results table's IDs.
        rememberWholeColumns(call.state, -1, ["key"])
        // One row shown alone (`=d[1]`) reads old before new, as the table does.
        rememberRecordOrder(call.state, -1, rows.columns)
        return 1
    }
}
