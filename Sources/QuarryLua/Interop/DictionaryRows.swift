import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

/// Dictionary rows (a list of records, as `sql()`, `summarize()` and group/having give)
/// read back from Lua to print or export: the column names and each row's values.
struct DictionaryRows {
    var columns: [String]
    var rows: [[Value]]
    /// The columns a table shows, when not all of them (group/having rows also answer to
    /// aliases such as `count` for `count(*)`, which would print twice).
    var shown: [String]? = nil
    /// The columns of days (`DictionaryRequest.execute`'s `dayKeys`): their dates are
    /// pushed as days, which print as `2013-01-01`.
    var days: Set<String> = []

    /// `value` of `column` as a table Swift draws shows it (a watch): a day, at its
    /// midnight, as its day, as `ManagedObject.shownValues` shows an object's.
    func shownValue(_ value: Value, of column: String) -> Value {
        guard days.contains(column), case .date(let seconds) = value else { return value }
        let text = Value.iso8601(seconds)
        return text.hasSuffix("T00:00:00Z") ? .text(String(text.dropLast(10))) : value
    }
}

/// The registry's weak-keyed table from a rows list to its column names, so rows made by
/// Quarry print their columns in the order the query named them, while the list itself
/// stays a plain Lua table (no metatable a script could trip over).
private let columnsKey = "quarry.rowcolumns"

/// Pushes `rows` as a list of records and remembers the column order for printing.
func pushDictionaryRows(_ state: OpaquePointer, _ rows: DictionaryRows) {
    lua_createtable(state, Int32(rows.rows.count), 0)
    for (i, row) in rows.rows.enumerated() {
        lua_createtable(state, 0, Int32(rows.columns.count))
        for (column, value) in zip(rows.columns, row) where !value.isNull {
            pushAttributeValue(state, value, of: nil, day: rows.days.contains(column))
            LuaTable.setField(state, -2, column)
        }
        lua_rawseti(state, -2, lua_Integer(i + 1))
    }
    pushColumnTable(state)
    lua_pushvalue(state, -2)
    let shown = rows.shown ?? rows.columns
    LuaTable.pushList(state, shown) { pushString(state, $0) }
    lua_rawset(state, -3)
    quarry_pop(state, 1)
}

/// Pushes the weak table of column orders, making it the first time.
private func pushColumnTable(_ state: OpaquePointer) {
    pushWeakKeyedRegistryTable(state, columnsKey)
}

/// Pushes the registry's table at `key`, weak in its keys (so what it says of a rows list
/// goes with the list), making it the first time.
func pushWeakKeyedRegistryTable(_ state: OpaquePointer, _ key: String) {
    pushRegistryField(state, key)
    if lua_type(state, -1) == LUA_TTABLE { return }
    quarry_pop(state, 1)
    lua_createtable(state, 0, 0)
    lua_createtable(state, 0, 1)
    pushString(state, "k")
    LuaTable.setField(state, -2, "__mode")
    lua_setmetatable(state, -2)
    lua_pushvalue(state, -1)
    setRegistryField(state, key)
}

/// The columns of the rows list at `index` in the order the query named them, when Quarry
/// made it (nil for any other value), as `help(r)` names them.
func quarryRowsColumns(_ state: OpaquePointer, _ index: Int32) -> [String]? {
    guard lua_type(state, index) == LUA_TTABLE else { return nil }
    let table = lua_absindex(state, index)
    pushColumnTable(state)
    lua_pushvalue(state, table)
    defer { quarry_pop(state, 2) }
    guard lua_rawget(state, -2) == LUA_TTABLE else { return nil }
    return LuaTable.array(state, -1) { _ in luaString(state, -1) }
}

/// Whether the value at `index` is a list of rows Quarry made (`sql()`, `summarize()`,
/// dictionary results), as opposed to any table a script built.
func isQuarryRows(_ state: OpaquePointer, _ index: Int32) -> Bool {
    guard lua_type(state, index) == LUA_TTABLE else { return false }
    let table = lua_absindex(state, index)
    pushColumnTable(state)
    lua_pushvalue(state, table)
    let known = lua_rawget(state, -2) == LUA_TTABLE
    quarry_pop(state, 2)
    return known
}

/// The value at `index` as dictionary rows, or nil when it is not a non-empty list of
/// records whose values are all scalars (string, number, boolean, date), or rows made by
/// Quarry (which may be empty). Columns are the remembered order, else the keys in
/// sorted order, leaving out a key such as `count(*)` that carries the same values as a
/// shorter name (`count`), since group/having rows hold both.
/// `including`: keys to read as columns too when the rows have them (a chart may name an
/// alias such as `count`, which the table does not show).
/// `showingDays`: a day (a date from a column of days) reads as its text, `2013-01-01`, for
/// a printed table; exports and charts keep it a date.
func readDictionaryRows(_ state: OpaquePointer, _ index: Int32, including extra: [String] = [], showingDays: Bool = false) -> DictionaryRows? {
    guard lua_type(state, index) == LUA_TTABLE else { return nil }
    let table = lua_absindex(state, index)
    var known: [String]?
    pushColumnTable(state)
    lua_pushvalue(state, table)
    if lua_rawget(state, -2) == LUA_TTABLE {
        known = LuaTable.array(state, -1) { _ in luaString(state, -1) }
    }
    quarry_pop(state, 2)
    let count = LuaTable.length(state, table)
    guard count > 0 || known != nil else { return nil }
    if let known { return readKnownRows(state, table, count: count, columns: known, including: extra, showingDays: showingDays) }
    var records: [[String: Value]] = []
    for i in 0..<count {
        guard LuaTable.element(state, table, i + 1) == LUA_TTABLE, lua_getmetatable(state, -1) == 0 else {
            quarry_pop(state, lua_type(state, -1) == LUA_TTABLE ? 2 : 1)
            return nil
        }
        var record: [String: Value] = [:]
        let (keys, nonString) = LuaTable.stringKeys(state, -1)
        guard !nonString else {
            quarry_pop(state, 1)
            return nil
        }
        for key in keys {
            LuaTable.field(state, -1, key)
            // A day (`dateText`) prints as its day, as `ManagedObject.shownValues` shows it.
            let day = showingDays ? dateText(state, -1).flatMap { $0.count == 10 ? Value.text($0) : nil } : nil
            let value = day ?? luaValue(state, -1)
            quarry_pop(state, 1)
            guard let value else {
                quarry_pop(state, 1)
                return nil
            }
            record[key] = value
        }
        quarry_pop(state, 1)
        records.append(record)
    }
    var columns = known ?? inferredColumns(records)
    for key in extra where !columns.contains(key) && records.contains(where: { $0[key] != nil }) { columns.append(key) }
    return DictionaryRows(columns: columns, rows: records.map { record in columns.map { record[$0] ?? .null } })
}

/// Rows Quarry made, whose columns are known: each record read by one walk of its fields
/// into a row of those columns (and of `extra` where a record has them), as
/// `readDictionaryRows` reads any other list, with the same refusals. A field's column is
/// found by its key's address: Lua keeps one copy of a short string, and every key stays
/// alive while its record does, so each distinct key is decoded once, not once a row
/// (a dictionary per record, its keys decoded and sorted, was a third of printing `sql()`).
private func readKnownRows(
    _ state: OpaquePointer, _ table: Int32, count: Int, columns known: [String], including extra: [String], showingDays: Bool
) -> DictionaryRows? {
    var columns = known
    for key in extra where !columns.contains(key) { columns.append(key) }
    var slotOfName: [String: Int] = [:]
    for (i, name) in columns.enumerated() where slotOfName[name] == nil { slotOfName[name] = i }
    // A column named twice (`select a, a`) shows the one value in both places.
    let first = columns.map { slotOfName[$0] ?? 0 }
    var slotOfKey: [UnsafeRawPointer: Int] = [:]
    var seen = [Bool](repeating: false, count: columns.count)
    var rows: [[Value]] = []
    rows.reserveCapacity(count)
    for i in 0..<count {
        guard LuaTable.element(state, table, i + 1) == LUA_TTABLE, lua_getmetatable(state, -1) == 0 else {
            quarry_pop(state, lua_type(state, -1) == LUA_TTABLE ? 2 : 1)
            return nil
        }
        let record = lua_absindex(state, -1)
        var row = [Value](repeating: .null, count: columns.count)
        lua_pushnil(state)
        while lua_next(state, record) != 0 {
            var length = 0
            guard lua_type(state, -2) == LUA_TSTRING, let key = lua_tolstring(state, -2, &length) else {
                quarry_pop(state, 3)
                return nil
            }
            let slot: Int
            if let known = slotOfKey[UnsafeRawPointer(key)] {
                slot = known
            } else {
                slot = slotOfName[luaString(state, -2)] ?? -1
                slotOfKey[UnsafeRawPointer(key)] = slot
            }
            // A day (`dateText`) prints as its day, as `ManagedObject.shownValues` shows it.
            let day = showingDays ? dateText(state, -1).flatMap { $0.count == 10 ? Value.text($0) : nil } : nil
            guard let value = day ?? luaValue(state, -1) else {
                quarry_pop(state, 3)
                return nil
            }
            quarry_pop(state, 1)
            if slot >= 0 {
                row[slot] = value
                seen[slot] = true
            }
        }
        quarry_pop(state, 1)
        for (j, f) in first.enumerated() where f != j { row[j] = row[f] }
        rows.append(row)
    }
    // The extra columns no record has are left out.
    let kept = columns.indices.filter { $0 < known.count || seen[$0] }
    guard kept.count < columns.count else { return DictionaryRows(columns: columns, rows: rows) }
    return DictionaryRows(columns: kept.map { columns[$0] }, rows: rows.map { row in kept.map { row[$0] } })
}

/// Every key of the records, sorted, without a call-shaped key that repeats another's values.
private func inferredColumns(_ records: [[String: Value]]) -> [String] {
    let keys = Set(records.flatMap(\.keys)).sorted()
    return keys.filter { key in
        guard key.contains("(") else { return true }
        let twin = keys.first { other in other != key && !other.contains("(") && records.allSatisfy { $0[other] == $0[key] } }
        return twin == nil
    }
}
