import CLua
import CQuarryShim

/// Cells of a rows list that hold estimates (summarize()'s distinct counts past
/// `SummaryOptions.exactDistinctLimit`, quartiles read from a sample): a printed table
/// marks each with `~` (`~20,113`) and says under it what the mark means, where the
/// header's `distinct~` alone was easy to miss; the rows keep the values, exact in type,
/// and data modes and exports write them unmarked. Kept by column name, each with the
/// 1-based rows whose cell is an estimate, as the headers are.
private let estimatesKey = "quarry.rowestimates"

/// Remembers the estimated cells of the rows list at `index`: row numbers by column.
func rememberEstimates(_ state: OpaquePointer, _ index: Int32, _ estimates: [String: [Int]]) {
    let rows = lua_absindex(state, index)
    pushWeakKeyedRegistryTable(state, estimatesKey)
    lua_pushvalue(state, rows)
    lua_createtable(state, 0, Int32(estimates.count))
    for (column, numbers) in estimates {
        LuaTable.pushList(state, numbers) { lua_pushinteger(state, lua_Integer($0)) }
        LuaTable.setField(state, -2, column)
    }
    lua_rawset(state, -3)
    quarry_pop(state, 1)
}

/// The estimated cells remembered for the rows list at `index`, as 0-based row indexes
/// by column name (none: empty).
func rememberedEstimates(_ state: OpaquePointer, _ index: Int32) -> [String: Set<Int>] {
    guard lua_type(state, index) == LUA_TTABLE else { return [:] }
    let rows = lua_absindex(state, index)
    pushWeakKeyedRegistryTable(state, estimatesKey)
    lua_pushvalue(state, rows)
    var estimates: [String: Set<Int>] = [:]
    if lua_rawget(state, -2) == LUA_TTABLE {
        for column in LuaTable.stringKeys(state, -1).keys {
            LuaTable.field(state, -1, column)
            let numbers = LuaTable.array(state, -1) { _ in Int(quarry_tointeger(state, -1, nil)) - 1 }
            quarry_pop(state, 1)
            estimates[column] = Set(numbers)
        }
    }
    quarry_pop(state, 2)
    return estimates
}
