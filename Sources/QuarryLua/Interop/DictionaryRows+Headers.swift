import CLua
import CQuarryShim

/// Headers a printed table of dictionary rows shows instead of its column names, where
/// they differ: summarize() marks estimated statistics (`distinct~`) there, while the
/// rows keep their plain keys (`s.distinct`) and data modes and exports their plain names.
/// Kept as the column order is, in a weak-keyed registry table from the rows list.
private let headersKey = "quarry.rowheaders"

/// Pushes the weak table of headers, making it the first time.
private func pushHeadersTable(_ state: OpaquePointer) {
    pushWeakKeyedRegistryTable(state, headersKey)
}

/// Remembers `headers` for the rows list at `index`.
func rememberHeaders(_ state: OpaquePointer, _ index: Int32, _ headers: [String]) {
    let rows = lua_absindex(state, index)
    pushHeadersTable(state)
    lua_pushvalue(state, rows)
    LuaTable.pushList(state, headers) { pushString(state, $0) }
    lua_rawset(state, -3)
    quarry_pop(state, 1)
}

/// The headers remembered for the rows list at `index`, when they name `count` columns.
func rememberedHeaders(_ state: OpaquePointer, _ index: Int32, count: Int) -> [String]? {
    guard lua_type(state, index) == LUA_TTABLE else { return nil }
    let rows = lua_absindex(state, index)
    pushHeadersTable(state)
    lua_pushvalue(state, rows)
    var headers: [String]?
    if lua_rawget(state, -2) == LUA_TTABLE {
        headers = LuaTable.array(state, -1) { _ in luaString(state, -1) }
    }
    quarry_pop(state, 2)
    return headers?.count == count ? headers : nil
}

/// Rows whose floating values print to six significant digits (summarize()'s statistics,
/// `29.8478`, so quartiles stay on the screen); the rows keep the exact values, and CSV,
/// JSON and exports write them whole. Kept as the headers are.
private let digitsKey = "quarry.rowdigits"

/// Marks the rows list at `index` as printing its floating values to `digits` digits.
func rememberDigits(_ state: OpaquePointer, _ index: Int32, _ digits: Int) {
    remember(state, index, under: digitsKey) { lua_pushinteger($0, lua_Integer(digits)) }
}

/// The significant digits remembered for the rows list at `index` (nil: as Lua writes floats).
func rememberedDigits(_ state: OpaquePointer, _ index: Int32) -> Int? {
    remembered(state, index, under: digitsKey) { lua_type($0, -1) == LUA_TNUMBER ? Int(quarry_tointeger($0, -1, nil)) : nil }
}

/// Columns of a rows list never cut in a printed table, as numbers are not: an identity a
/// person copies (diff's `key`). Kept as the headers are, by column name.
private let wholeColumnsKey = "quarry.rowwhole"

/// Marks `columns` of the rows list at `index` as printed whole.
func rememberWholeColumns(_ state: OpaquePointer, _ index: Int32, _ columns: [String]) {
    rememberColumns(state, index, columns, under: wholeColumnsKey)
}

/// The columns remembered as printed whole for the rows list at `index` (none: empty).
func rememberedWholeColumns(_ state: OpaquePointer, _ index: Int32) -> [String] {
    rememberedColumns(state, index, under: wholeColumnsKey)
}

/// Columns of a rows list that hold a day column's dates (`DayAttributes`):
/// printed as their day, as a results table shows them, while the rows keep the dates.
/// Kept as the headers are, by column name.
private let dayColumnsKey = "quarry.rowdays"

/// Marks `columns` of the rows list at `index` as printed as days.
func rememberDayColumns(_ state: OpaquePointer, _ index: Int32, _ columns: [String]) {
    rememberColumns(state, index, columns, under: dayColumnsKey)
}

/// The columns remembered as days for the rows list at `index` (none: empty).
func rememberedDayColumns(_ state: OpaquePointer, _ index: Int32) -> [String] {
    rememberedColumns(state, index, under: dayColumnsKey)
}

/// Records whose keys print in their columns' order, not sorted by name: a diff row reads
/// `change, entity, key, property, old, new`, old before new as in its table and as diff
/// tools put them (`-` old, `+` new), where sorted keys would put `new` first. Kept per
/// record (the rows list's own order is `quarryRowsColumns`), all sharing one list.
private let recordOrderKey = "quarry.recordorder"

/// Marks each record of the rows list at `index` as printing its keys in `columns`' order.
func rememberRecordOrder(_ state: OpaquePointer, _ index: Int32, _ columns: [String]) {
    let rows = lua_absindex(state, index)
    pushWeakKeyedRegistryTable(state, recordOrderKey)
    LuaTable.pushList(state, columns) { pushString(state, $0) }
    let count = lua_rawlen(state, rows)
    for i in 0..<Int(count) {
        lua_rawgeti(state, rows, lua_Integer(i + 1))
        lua_pushvalue(state, -2)
        lua_rawset(state, -4)
    }
    quarry_pop(state, 2)
}

/// Pushes the key order remembered for the record at `index`, or nil; returns whether it did.
@discardableResult
func pushRecordOrder(_ state: OpaquePointer, _ index: Int32) -> Bool {
    let record = lua_absindex(state, index)
    guard lua_type(state, record) == LUA_TTABLE else {
        lua_pushnil(state)
        return false
    }
    pushWeakKeyedRegistryTable(state, recordOrderKey)
    lua_pushvalue(state, record)
    let found = lua_rawget(state, -2) == LUA_TTABLE
    quarry_remove(state, -2)
    return found
}

/// Keeps `columns` for the rows list at `index` in the weak-keyed registry table `key`.
private func rememberColumns(_ state: OpaquePointer, _ index: Int32, _ columns: [String], under key: String) {
    remember(state, index, under: key) { LuaTable.pushList($0, columns) { pushString(state, $0) } }
}

/// The columns kept for the rows list at `index` in the registry table `key` (none: empty).
private func rememberedColumns(_ state: OpaquePointer, _ index: Int32, under key: String) -> [String] {
    remembered(state, index, under: key) { lua_type($0, -1) == LUA_TTABLE ? LuaTable.array($0, -1) { _ in luaString(state, -1) } : nil } ?? []
}

/// Keeps the value `push` pushes for the rows list at `index` in the weak-keyed registry
/// table `key`: what a printed list of records remembers beside its rows.
private func remember(_ state: OpaquePointer, _ index: Int32, under key: String, _ push: (OpaquePointer) -> Void) {
    let rows = lua_absindex(state, index)
    pushWeakKeyedRegistryTable(state, key)
    lua_pushvalue(state, rows)
    push(state)
    lua_rawset(state, -3)
    quarry_pop(state, 1)
}

/// What `read` makes of the value kept for the rows list at `index` in the registry table
/// `key` (on the stack's top while it reads; nil when none is kept).
private func remembered<T>(_ state: OpaquePointer, _ index: Int32, under key: String, _ read: (OpaquePointer) -> T?) -> T? {
    guard lua_type(state, index) == LUA_TTABLE else { return nil }
    let rows = lua_absindex(state, index)
    pushWeakKeyedRegistryTable(state, key)
    lua_pushvalue(state, rows)
    lua_rawget(state, -2)
    let value = read(state)
    quarry_pop(state, 2)
    return value
}

/// A line printed above a rows list's table in the modes people read: which way a diff
/// reads (`from a.db (this session) to b.db: + only in b.db, …`). Kept as the digits are.
private let captionKey = "quarry.rowcaption"

/// Remembers `caption` for the rows list at `index`.
func rememberCaption(_ state: OpaquePointer, _ index: Int32, _ caption: String) {
    remember(state, index, under: captionKey) { pushString($0, caption) }
}

/// The caption remembered for the rows list at `index`, if any.
func rememberedCaption(_ state: OpaquePointer, _ index: Int32) -> String? {
    remembered(state, index, under: captionKey) { lua_type($0, -1) == LUA_TSTRING ? luaString($0, -1) : nil }
}
