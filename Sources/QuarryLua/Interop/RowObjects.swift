import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

// Objects that are still only rows. Fetched results hand Lua one userdata per row
// without making a ManagedObject: the userdata names its batch (a `rows` userdata over
// a RowBatch's cells) and its row, and the C `__index` of objects reads attributes from
// the cells. The ManagedObject is made the first time Swift needs it (a write, a
// relationship, a method, a changed store), and from then on the userdata holds it as
// any object's does.
//
// Identity: the same stored row is the same Lua value while it is referenced, so rows
// are found by entity and key in weak tables, both for rows and for made objects;
// objects without a key yet are found by their Swift pointer. Per entity there are two
// (see QUARRY_CHUNK_BITS in quarry_shim.h): a table by key (registry "quarry.rows"), and
// chunks of array slots ("quarry.rows.chunks") where a walk in key order records its rows
// without hashing each one.

/// The registry's keys of the identity tables, also as C strings at fixed addresses: Lua
/// finds a string it was given at an address it saw before in its cache, without hashing it.
private let rowsKeyBytes: StaticString = "quarry.rows"
private let chunksKeyBytes: StaticString = "quarry.rows.chunks"
private let rowsKey = rowsKeyBytes.description
private let chunksKey = chunksKeyBytes.description
private let weakValuesKey = "quarry.weak.values"

/// Forgets which userdata stands for which row.
private func resetRowIdentities(_ state: OpaquePointer) {
    lua_createtable(state, 0, 4)
    setRegistryField(state, rowsKey)
    lua_createtable(state, 0, 4)
    setRegistryField(state, chunksKey)
}

/// Forgets which userdata stands for which row of one store (`.open` replaced the
/// session's store, or `b:close()` closed one: the same keys now name other rows, or
/// none). `scope` is the store's prefix of entity names ("" for the session's store, whose
/// names have none); the rows of other stores keep their identities.
func resetRowIdentities(_ state: OpaquePointer, scope: String) {
    for registryKey in [rowsKey, chunksKey] {
        pushRegistryField(state, registryKey)
        defer { quarry_pop(state, 1) }
        guard lua_type(state, -1) == LUA_TTABLE else { continue }
        var names: [String] = []
        lua_pushnil(state)
        while lua_next(state, -2) != 0 {
            quarry_pop(state, 1)
            guard lua_type(state, -1) == LUA_TSTRING else { continue }
            let name = luaString(state, -1)
            if scope.isEmpty ? !name.hasPrefix("\u{1}") : name.hasPrefix(scope) { names.append(name) }
        }
        for name in names {
            lua_pushnil(state)
            LuaTable.setField(state, -2, name)
        }
    }
}

/// Says that rows of `context` keep their identities under `scope` (a store `open()`
/// opened); an empty scope forgets the context (closed).
func setIdentityScope(_ state: OpaquePointer, of context: ObjectContext, _ scope: String) {
    if pushRegistrySlot(state, .storeScopes) != LUA_TTABLE {
        quarry_pop(state, 1)
        lua_createtable(state, 0, 2)
        lua_pushvalue(state, -1)
        setRegistrySlot(state, .storeScopes)
    }
    lua_pushlightuserdata(state, Unmanaged.passUnretained(context).toOpaque())
    if scope.isEmpty { lua_pushnil(state) } else { pushString(state, scope) }
    lua_rawset(state, -3)
    quarry_pop(state, 1)
}

/// The name `entity`'s rows of `context` are found by in the identity tables: the
/// entity's own for the session's store, prefixed by the store's scope for another.
func identityName(_ state: OpaquePointer, _ context: ObjectContext?, _ entity: String) -> String {
    guard let context else { return entity }
    defer { quarry_pop(state, 1) }
    guard pushRegistrySlot(state, .storeScopes) == LUA_TTABLE else { return entity }
    lua_pushlightuserdata(state, Unmanaged.passUnretained(context).toOpaque())
    defer { quarry_pop(state, 1) }
    guard lua_rawget(state, -2) == LUA_TSTRING else { return entity }
    return luaString(state, -1) + entity
}

/// Pushes the metatable that makes a table's values weak.
private func pushWeakValuesMetatable(_ state: OpaquePointer) {
    pushRegistryField(state, weakValuesKey)
    guard lua_type(state, -1) != LUA_TTABLE else { return }
    quarry_pop(state, 1)
    lua_createtable(state, 0, 1)
    pushString(state, "v")
    lua_setfield(state, -2, "__mode")
    lua_pushvalue(state, -1)
    setRegistryField(state, weakValuesKey)
}

/// Pushes the weak table for `entity` in the registry table `registryKey`; a new one
/// when `renewIfEmpty` and all it held was collected (a table does not shrink until it
/// grows again, and C asks whether it is empty for every batch).
private func pushEntityTable(_ state: OpaquePointer, _ registryKey: String, entity: String, renewIfEmpty: Bool = false) {
    pushRegistryField(state, registryKey)
    if lua_type(state, -1) != LUA_TTABLE {
        quarry_pop(state, 1)
        resetRowIdentities(state)
        pushRegistryField(state, registryKey)
    }
    if LuaTable.field(state, -1, entity) == LUA_TTABLE {
        var keep = true
        if renewIfEmpty {
            lua_pushnil(state)
            if lua_next(state, -2) != 0 { quarry_pop(state, 2) } else { keep = false }
        }
        if keep {
            quarry_remove(state, -2)
            return
        }
    }
    quarry_pop(state, 1)
    lua_createtable(state, 0, 0)
    pushWeakValuesMetatable(state)
    lua_setmetatable(state, -2)
    lua_pushvalue(state, -1)
    LuaTable.setField(state, -3, entity)
    quarry_remove(state, -2)
}

/// Pushes the two weak tables that record the userdata of `entity`'s rows: by key, then
/// by chunk (see `quarry_find_row`).
private func pushRowIdentities(_ state: OpaquePointer, entity: String, renewIfEmpty: Bool = false) {
    if !renewIfEmpty, pushKnownRowIdentities(state, entity: entity) { return }
    pushEntityTable(state, rowsKey, entity: entity, renewIfEmpty: renewIfEmpty)
    pushEntityTable(state, chunksKey, entity: entity, renewIfEmpty: renewIfEmpty)
}

/// `pushRowIdentities` where both of `entity`'s tables exist (every lookup after its first
/// batch): the registry's tables found by their keys' fixed addresses and the entity's
/// name pushed once. Each assignment looks its row up here (`adoptRow`), and pushing the
/// four strings was a third of that. False, with nothing pushed, where a table is missing.
private func pushKnownRowIdentities(_ state: OpaquePointer, entity: String) -> Bool {
    let top = lua_gettop(state)
    func cString(_ key: StaticString) -> UnsafePointer<CChar> { UnsafeRawPointer(key.utf8Start).assumingMemoryBound(to: CChar.self) }
    // [rows, chunks]: the registry's tables of every entity.
    guard lua_getfield(state, quarry_registryindex(), cString(rowsKeyBytes)) == LUA_TTABLE,
        lua_getfield(state, quarry_registryindex(), cString(chunksKeyBytes)) == LUA_TTABLE
    else {
        lua_settop(state, top)
        return false
    }
    pushString(state, entity)
    lua_pushvalue(state, -1)
    // [rows, chunks, name, rows[name]] -> [rows[name], chunks, name]
    let byKey = lua_rawget(state, top + 1)
    lua_copy(state, -1, top + 1)
    quarry_pop(state, 1)
    // [rows[name], chunks, chunks[name]] -> [rows[name], chunks[name]]
    let byChunk = lua_rawget(state, top + 2)
    lua_copy(state, -1, top + 2)
    quarry_pop(state, 1)
    guard byKey == LUA_TTABLE, byChunk == LUA_TTABLE else {
        lua_settop(state, top)
        return false
    }
    return true
}

/// Pushes the userdata for `object`: the one Lua already has for its row, if any.
func pushManagedObject(_ state: OpaquePointer, _ object: ManagedObject) {
    guard let key = object.primaryKey else {
        pushSwiftObject(state, object, kind: .object)
        return
    }
    // By hierarchy root, as batches record their rows (see RowBatch.identityRoot).
    let context = object.managedObjectContext
    pushRowIdentities(state, entity: identityName(state, context, context?.rootName(of: object.entity.name) ?? object.entity.name))
    let identities = lua_gettop(state) - 1
    // Leaves the value on top in place of the two tables.
    func dropTables() {
        quarry_remove(state, identities)
        quarry_remove(state, identities)
    }
    if quarry_find_row(state, identities, identities + 1, lua_Integer(key)) == LUA_TUSERDATA,
        let payload = userdataPayload(state, -1, kind: .object)
    {
        if payload == 0 {
            adopt(state, -1, object)
            dropTables()
            return
        }
        if payload == UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) {
            dropTables()
            return
        }
    }
    // One found that holds another object is replaced where it was recorded by key.
    if lua_type(state, -1) == LUA_TUSERDATA { quarry_note_row_twin(state) }
    quarry_pop(state, 1)
    // Not found by key: perhaps pushed before it had one (an insert since saved).
    pushSwiftObject(state, object, kind: .object)
    lua_pushvalue(state, -1)
    lua_rawseti(state, identities, lua_Integer(key))
    dropTables()
}

/// Makes `object` the object of the row userdata Lua holds for its row, if it holds one
/// that is still only a row: an unsaved change to the object's values is then read
/// through it, not from the row's cells, which stay current for every other row
/// (`quarry_bump_results_epoch`). Both places a row is recorded are looked in (by key,
/// and its chunk's slot).
func adoptRow(_ state: OpaquePointer, of object: ManagedObject) {
    guard let key = object.primaryKey else { return }
    let context = object.managedObjectContext
    pushRowIdentities(state, entity: identityName(state, context, context?.rootName(of: object.entity.name) ?? object.entity.name))
    let identities = lua_gettop(state) - 1
    defer { lua_settop(state, identities - 1) }
    if quarry_find_row(state, identities, identities + 1, lua_Integer(key)) == LUA_TUSERDATA, userdataPayload(state, -1, kind: .object) == 0 {
        adopt(state, -1, object)
    }
    quarry_pop(state, 1)
    // The row recorded by key too, where its chunk's slot holds another userdata.
    if lua_rawgeti(state, identities, lua_Integer(key)) == LUA_TUSERDATA, userdataPayload(state, -1, kind: .object) == 0 {
        adopt(state, -1, object)
    }
}

/// Notes that attribute `key` of the row userdata at `index` was asked of Swift (its
/// batch did not read that column): the next batches of its results read it.
func noteRowRead(_ state: OpaquePointer, _ index: Int32, _ key: String) {
    guard userdataPayload(state, index, kind: .object) == 0 else { return }
    if lua_getiuservalue(state, index, 1) == LUA_TUSERDATA, let batch = swiftObject(state, -1, kind: .rows, as: RowBatch.self) {
        batch.noteRead(key)
    }
    quarry_pop(state, 1)
}

/// Makes the ManagedObject of the row userdata at `index`, which then holds it; nil
/// when it cannot be made (see `makeObject` for why).
func materialize(_ state: OpaquePointer, _ index: Int32) -> ManagedObject? {
    try? makeObject(state, index)
}

/// Makes the ManagedObject of the row userdata at `index`, which then holds it, or says
/// why it cannot be. `beforeOutsideChange`: from the values it was read with, though a
/// commit by another connection has been noticed (see `makeRowObjectsInUse`).
@discardableResult
func makeObject(_ state: OpaquePointer, _ index: Int32, beforeOutsideChange: Bool = false) throws -> ManagedObject {
    let index = lua_absindex(state, index)
    guard let block = lua_touserdata(state, index)?.assumingMemoryBound(to: quarry_object_block.self),
        userdataPayload(state, index, kind: .object) != nil
    else { throw LuaError("not an object") }
    guard lua_getiuservalue(state, index, 1) == LUA_TUSERDATA,
        let batch = swiftObject(state, -1, kind: .rows, as: RowBatch.self)
    else {
        quarry_pop(state, 1)
        throw LuaError("this object can no longer be read: the rows it was read with are gone")
    }
    quarry_pop(state, 1)
    // The user value is the batch unless a script with the debug library replaced it.
    let row = Int(block.pointee.row)
    guard row >= 0, row < batch.keys.count, batch.keys[row] == block.pointee.key else {
        throw LuaError("this object can no longer be read: its batch was replaced")
    }
    let made = try beforeOutsideChange ? batch.objectBeforeOutsideChange(at: row) : batch.object(at: row)
    guard let object = made else { throw LuaError("\(batch.entity.name)/\(batch.keys[row]) can no longer be read: its store was closed") }
    adopt(state, index, object)
    return object
}

/// Makes every row userdata still referenced into its object, from the values it was
/// read with: a commit by another connection has been noticed, and the context compares
/// the objects in use with the store to tell observers what changed.
func makeRowObjectsInUse(_ state: OpaquePointer) {
    let top = lua_gettop(state)
    // No collection meanwhile: a finalizer could run Lua code in the middle of the walk.
    let paused = quarry_gc_pause(state)
    defer {
        lua_settop(state, top)
        quarry_gc_resume(state, paused)
    }
    // The rows by key, and the rows in chunks (one level deeper).
    for (registryKey, depth) in [(rowsKey, 1), (chunksKey, 2)] {
        pushRegistryField(state, registryKey)
        if lua_type(state, -1) == LUA_TTABLE { makeRowObjects(state, in: lua_gettop(state), depth: depth) }
        quarry_pop(state, 1)
    }
}

/// `makeRowObjectsInUse` for the table of tables at `table`, `depth` levels above the
/// userdata.
private func makeRowObjects(_ state: OpaquePointer, in table: Int32, depth: Int) {
    lua_pushnil(state)
    while lua_next(state, table) != 0 {
        if depth > 0, lua_type(state, -1) == LUA_TTABLE {
            makeRowObjects(state, in: lua_gettop(state), depth: depth - 1)
        } else if depth == 0, userdataPayload(state, -1, kind: .object) == 0 {
            _ = try? makeObject(state, -1, beforeOutsideChange: true)
        }
        quarry_pop(state, 1)
    }
}

/// Makes the objects of rows `window` of `batch` the cached objects of the results (or
/// section) userdata at `results`, where the window's first row has the 1-based index
/// `first` (see `quarry_results_block`), and pushes their table. `savedRows`: the results
/// are a walk over the saved rows as they were (`FetchResults.walksSavedRows`), whose
/// cache an unsaved change to one object's values leaves standing.
func cacheBatchObjects(_ state: OpaquePointer, results: Int32, _ batch: RowBatch, window: Range<Int>, first: Int, savedRows: Bool = false) {
    let results = lua_absindex(state, results)
    let count = window.count
    // The batch's cells (Swift memory the collector cannot see) are not told: they are
    // smaller than the rows' userdata and identity entries, which the collector sees and
    // which pace it, so batches go with their rows without making a loop collect more.
    // The table of the batch before is reused (only C reads it), emptied past this one.
    if lua_getiuservalue(state, results, 1) == LUA_TTABLE {
        var extra = lua_Integer(count) + 1
        while lua_rawgeti(state, -1, extra) != LUA_TNIL {
            quarry_pop(state, 1)
            lua_pushnil(state)
            lua_rawseti(state, -2, extra)
            extra += 1
        }
        quarry_pop(state, 1)
    } else {
        quarry_pop(state, 1)
        lua_createtable(state, Int32(count), 0)
    }
    let objects = lua_gettop(state)
    pushRows(state, batch)
    let rows = lua_gettop(state)
    pushRowIdentities(state, entity: identityName(state, batch.owningContext, batch.identityRoot), renewIfEmpty: true)
    let identities = lua_gettop(state) - 1
    pushWeakValuesMetatable(state)
    pushRegistrySlot(state, .rowObjectMetatable)
    var skip: [UInt8] = []
    if !batch.registered.isEmpty {
        skip = [UInt8](repeating: 0, count: batch.keys.count)
        for row in batch.registered.keys { skip[row] = 1 }
    }
    batch.keys.withUnsafeBufferPointer { keys in
        skip.withUnsafeBufferPointer { skip in
            quarry_fill_batch_objects(
                state, objects, rows, identities, identities + 1, identities + 2, lua_gettop(state),
                keys.baseAddress, skip.isEmpty ? nil : skip.baseAddress, Int64(window.lowerBound), Int64(count))
        }
    }
    for (row, object) in batch.registered where window.contains(row) {
        pushManagedObject(state, object)
        lua_rawseti(state, objects, lua_Integer(row - window.lowerBound + 1))
    }
    lua_settop(state, objects)
    lua_pushvalue(state, objects)
    lua_setiuservalue(state, results, 1)
    guard let block = lua_touserdata(state, results)?.assumingMemoryBound(to: quarry_results_block.self) else { return }
    block.pointee.epoch = savedRows ? quarry_epoch(state) : quarry_results_epoch(state)
    block.pointee.saved_rows = savedRows ? 1 : 0
    block.pointee.first = Int64(first)
    block.pointee.count = Int64(count)
}

/// Pushes the object that the results (or section) userdata at `results` cached for the
/// 1-based index `i` (`cacheBatchObjects`), however the state moved since (C answers from
/// the cache only in the state it was made in); false, with nothing pushed, when it holds
/// none. For a walk whose cached rows are still its objects (`ResultsWalk`).
func pushCachedObject(_ state: OpaquePointer, results: Int32, _ i: lua_Integer) -> Bool {
    guard let block = lua_touserdata(state, results)?.assumingMemoryBound(to: quarry_results_block.self) else { return false }
    let offset = i - lua_Integer(block.pointee.first)
    guard block.pointee.count > 0, offset >= 0, offset < lua_Integer(block.pointee.count) else { return false }
    guard lua_getiuservalue(state, results, 1) == LUA_TTABLE else {
        quarry_pop(state, 1)
        return false
    }
    guard lua_rawgeti(state, -1, offset + 1) == LUA_TUSERDATA else {
        quarry_pop(state, 2)
        return false
    }
    quarry_remove(state, -2)
    return true
}

/// Drops the results' cached objects (they answered the old request).
func dropCachedObjects(_ state: OpaquePointer, results: Int32) {
    lua_touserdata(state, results)?.assumingMemoryBound(to: quarry_results_block.self).pointee.count = 0
    lua_pushnil(state)
    lua_setiuservalue(state, results, 1)
}

/// Pushes a `rows` userdata over `batch`: its cells for C, and as its user value the
/// table from attribute name to its field code (see `quarry_rows_block`).
private func pushRows(_ state: OpaquePointer, _ batch: RowBatch) {
    pushSwiftObject(state, batch, kind: .rows)
    let block = lua_touserdata(state, -1)!.assumingMemoryBound(to: quarry_rows_block.self)
    block.pointee.cells = UnsafePointer(batch.cells)
    block.pointee.bytes = UnsafePointer(batch.bytes)
    block.pointee.rows = Int64(batch.keys.count)
    block.pointee.columns = Int64(batch.columnCount)
    block.pointee.epoch = quarry_epoch(state)
    block.pointee.attributes_read = batch.source.attributesRead
    block.pointee.current_epoch = quarry_epoch_address(state)
    let attributes = batch.entity.attributes
    let days = batch.source.dayColumns
    var fast: [(name: UnsafeRawPointer, code: Int64)] = []
    lua_createtable(state, 0, Int32(batch.attributes.count))
    for (position, index) in batch.attributes.enumerated() where position + 1 < 0x2000 {
        let code = Int64(index << 16 | (position + 1) << 3 | fieldKind(attributes[index].type, day: days.contains(attributes[index].name)))
        pushString(state, attributes[index].name)
        // The table keeps the key alive, so its interned string stays where it is.
        if fast.count < Int(QUARRY_FAST_FIELDS), let name = lua_topointer(state, -1) { fast.append((name, code)) }
        lua_pushinteger(state, lua_Integer(code))
        lua_rawset(state, -3)
    }
    lua_setiuservalue(state, -2, 1)
    block.pointee.fast_count = Int64(fast.count)
    withUnsafeMutableBytes(of: &block.pointee.fast_names) { names in
        for (i, field) in fast.enumerated() {
            names.storeBytes(of: field.name, toByteOffset: i * MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer.self)
        }
    }
    withUnsafeMutableBytes(of: &block.pointee.fast_codes) { codes in
        for (i, field) in fast.enumerated() { codes.storeBytes(of: field.code, toByteOffset: i * MemoryLayout<Int64>.stride, as: Int64.self) }
    }
}

/// How C reads an attribute of this type (see `push_cell` in shim.c); `day` for a column
/// of days, whose dates print as their day.
private func fieldKind(_ type: AttributeType, day: Bool) -> Int {
    switch type {
    case .int16, .int32, .int64: return Int(QUARRY_FIELD_INTEGER)
    case .double: return Int(QUARRY_FIELD_DOUBLE)
    case .decimal: return Int(QUARRY_FIELD_DECIMAL)
    case .string, .uuid, .binary: return Int(QUARRY_FIELD_STRING)
    case .bool: return Int(QUARRY_FIELD_BOOL)
    case .date: return Int(day ? QUARRY_FIELD_DAY : QUARRY_FIELD_DATE)
    case .json: return Int(QUARRY_FIELD_JSON)
    }
}
