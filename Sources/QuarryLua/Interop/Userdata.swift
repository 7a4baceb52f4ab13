import CLua
import CQuarryShim
import QuarryModel

/// Quarry's own value kinds as Lua userdata. Swift objects are retained by their
/// userdata and released by `__gc`; a weak-valued registry table maps each Swift object
/// to its one userdata, so the same row is the same Lua value while Lua references it.
enum UserdataKind: String, CaseIterable {
    /// `rows` is a batch of rows read as cells (a RowBatch); scripts never see one.
    /// `query` holds what made a list of dictionary rows (`RowsQuery`), kept in the
    /// registry only, so scripts never see one either.
    case object, results, section, set, entity, date, predicate, observer, namespace, binding, state, rows, query
    /// An exact decimal (`Value.decimal`), holding its text in a `DecimalBox`.
    case decimal
    /// What owns the ManagedObject of a row made an object (`adopt`), as the row's second
    /// user value (its own is the row); its `__gc` releases the object.
    case keeper
    /// A store the session holds (`open()`, `stores()`): an `OpenedStore`.
    case store

    /// The kind's place in `allCases`, which says its cookie and its registry slots.
    var ordinal: Int { Self.ordered.firstIndex(of: self) ?? 0 }
    /// `allCases` makes a new array each time it is read.
    private static let ordered = allCases
    /// Dates are plain numbers in a userdata; everything else holds a Swift object.
    var holdsSwiftObject: Bool { self != .date }
    /// An object's batch, a batch's field table, results' and sections' cached objects.
    /// (A switch: an array of kinds was made for each object pushed.)
    var userValues: Int32 {
        switch self {
        case .object, .rows, .results, .section, .keeper: return 1
        default: return 0
        }
    }
}

private let kindField = "__quarry_kind"

/// The registry entries read on every push of an object or lookup of a method, keyed by
/// addresses C keeps (`quarry_registry_slot`) rather than by names, which Lua hashed at
/// every read (with the name made anew: 3% of making 20,000 objects).
enum RegistrySlot {
    /// The weak table of each Swift object's one userdata.
    case identity
    /// The object metatable without `__gc`, for rows not yet made objects.
    case rowObjectMetatable
    case metatable(UserdataKind)
    /// The kind's methods, made at the first lookup (`QuarryRuntime.pushMethods`).
    case methods(UserdataKind)
    /// The date metatable's copy that dates read from a column of days carry (`pushDate`).
    case dayMetatable
    /// The identity scope of each store `open()` opened, by its context (`identityName`),
    /// read at every object pushed: nil until a script opens one.
    case storeScopes

    private static let kinds = UserdataKind.allCases.count

    var number: Int32 {
        switch self {
        case .identity: return 0
        case .rowObjectMetatable: return 1
        case .metatable(let kind): return Int32(2 + kind.ordinal)
        case .methods(let kind): return Int32(2 + Self.kinds + kind.ordinal)
        case .dayMetatable: return Int32(2 + 2 * Self.kinds)
        case .storeScopes: return Int32(3 + 2 * Self.kinds)
        }
    }
}

/// Pushes the value in registry slot `slot` (nil when none).
@discardableResult
func pushRegistrySlot(_ state: OpaquePointer, _ slot: RegistrySlot) -> Int32 {
    lua_rawgetp(state, quarry_registryindex(), quarry_registry_slot(slot.number))
}

/// Pops the value on top into registry slot `slot`.
func setRegistrySlot(_ state: OpaquePointer, _ slot: RegistrySlot) {
    lua_rawsetp(state, quarry_registryindex(), quarry_registry_slot(slot.number))
}

/// Creates the registry tables the functions below rely on; `configure` fills each
/// kind's metatable with its metamethods.
func installUserdataSupport(_ state: OpaquePointer, configure: (UserdataKind) -> Void) {
    quarry_set_cookies(
        UInt64(Block.cookie(.object)), UInt64(Block.cookie(.results)), UInt64(Block.cookie(.section)),
        UInt64(Block.cookie(.date)))
    lua_createtable(state, 0, 0)
    lua_createtable(state, 0, 1)
    pushString(state, "v")
    lua_setfield(state, -2, "__mode")
    lua_setmetatable(state, -2)
    setRegistrySlot(state, .identity)
    for kind in UserdataKind.allCases {
        lua_createtable(state, 0, 8)
        pushString(state, kind.rawValue)
        lua_setfield(state, -2, kindField)
        // Keeps getmetatable() from exposing (and letting scripts break) the metatable.
        pushString(state, "quarry " + kind.rawValue)
        lua_setfield(state, -2, "__metatable")
        configure(kind)
        if kind == .date {
            lua_pushvalue(state, -1)
            quarry_set_date_metatable(state)
        }
        setRegistrySlot(state, .metatable(kind))
    }
    // An object that is still only a row of its batch holds no Swift object, so it needs
    // no finalizer, which costs the collector a call per object: it gets a copy of the
    // object metatable without __gc until it is made (`materialize`).
    pushMetatableCopy(state, of: .object, without: "__gc")
    setRegistrySlot(state, .rowObjectMetatable)
    // A date read from a column of days (PostgreSQL's `date`) is a date like any other,
    // but prints as its day: the date metatable's copy marks it, so the day needs no room
    // in the block, and comparisons and arithmetic (the same metamethods) cannot tell.
    pushMetatableCopy(state, of: .date)
    lua_pushvalue(state, -1)
    quarry_set_day_metatable(state)
    setRegistrySlot(state, .dayMetatable)
    // A loop over results steps through their cached objects in C.
    quarry_install_ipairs(state)
}

/// The kind of Quarry userdata at `index`, or nil for any other value.
func userdataKind(_ state: OpaquePointer, _ index: Int32) -> String? {
    guard lua_type(state, index) == LUA_TUSERDATA, lua_getmetatable(state, index) != 0 else { return nil }
    pushString(state, kindField)
    lua_rawget(state, -2)
    let kind = lua_type(state, -1) == LUA_TSTRING ? luaString(state, -1) : nil
    quarry_pop(state, 2)
    return kind
}

/// Pushes the userdata for `object`, reusing the one Lua already has.
func pushSwiftObject(_ state: OpaquePointer, _ object: AnyObject, kind: UserdataKind) {
    let key = Unmanaged.passUnretained(object).toOpaque()
    pushRegistrySlot(state, .identity)
    if lua_rawgetp(state, -1, key) == LUA_TUSERDATA {
        quarry_remove(state, -2)
        return
    }
    quarry_pop(state, 1)
    let block = lua_newuserdatauv(state, Block.size(kind), kind.userValues)!
    block.initializeMemory(as: UInt8.self, repeating: 0, count: Block.size(kind))
    if kind == .object { quarry_note_outside_bytes(state, objectOutsideBytes) }
    Block.write(block, kind: kind, payload: UInt(bitPattern: Unmanaged.passRetained(object).toOpaque()))
    pushRegistrySlot(state, .metatable(kind))
    lua_setmetatable(state, -2)
    lua_pushvalue(state, -1)
    lua_rawsetp(state, -3, key)
    quarry_remove(state, -2)
}

/// The Swift object held by the userdata at `index` when it is of `kind`. An object
/// that is still only a row of its batch is made now (see `materialize`).
func swiftObject<T: AnyObject>(_ state: OpaquePointer, _ index: Int32, kind: UserdataKind, as type: T.Type) -> T? {
    guard let payload = Block.payload(state, index, kind: kind) else { return nil }
    guard let pointer = UnsafeMutableRawPointer(bitPattern: payload) else {
        return kind == .object ? materialize(state, index) as? T : nil
    }
    return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? T
}

/// About what a ManagedObject costs Swift (the object, its row of values, its
/// registration), told to the collector for each object userdata made, so garbage
/// objects are collected at the pace they take memory.
let objectOutsideBytes = 512

/// Makes the row userdata at `index` (an object holding nothing yet) hold `object`.
///
/// The row keeps its metatable, which has no `__gc`: a new `keeper` userdata, the row's
/// second user value, owns the object and releases it, and the row's payload says so
/// (`Block.kept`). Giving the row a metatable with `__gc` had Lua move it to the list of
/// objects to finalize, which it finds by walking every object made since the row
/// (`luaC_checkfinalizer`): thousands for each object made in a loop over results. The
/// keeper, made just now, is found at once. The object's pointer lives in the keeper
/// alone and is read through the row's user value, so a keeper collected (a finalizer
/// revived the row, or the debug library took the keeper away) leaves nothing dangling:
/// the row reads as a row again. A keeper is believed only by the row block it names,
/// and it holds that row (its own user value), so no other row is made at that address
/// while the keeper lives: one moved to another row is not believed. The row's first user
/// value stays the batch, which keeps the batch's record of its rows (their identity)
/// alive as long as any of them.
func adopt(_ state: OpaquePointer, _ index: Int32, _ object: AnyObject) {
    let index = lua_absindex(state, index)
    guard let block = lua_touserdata(state, index), let keeper = lua_newuserdatauv(state, Block.size(.keeper), 1) else { return }
    Block.write(keeper, kind: .keeper, payload: UInt(bitPattern: Unmanaged.passRetained(object).toOpaque()))
    quarry_note_outside_bytes(state, objectOutsideBytes)
    keeper.storeBytes(of: UInt(bitPattern: block), toByteOffset: 2 * MemoryLayout<UInt>.size, as: UInt.self)
    pushRegistrySlot(state, .metatable(.keeper))
    lua_setmetatable(state, -2)
    // The keeper holds its row, so no other row is made where it was while the keeper
    // lives: the address it names is that row's alone.
    lua_pushvalue(state, index)
    lua_setiuservalue(state, -2, 1)
    lua_setiuservalue(state, index, 2)
    Block.write(block, kind: .object, payload: Block.kept)
}

/// Whether the userdata at `index` is a row's that holds its object (`adopt`).
func isRowHoldingItsObject(_ state: OpaquePointer, _ index: Int32) -> Bool {
    Block.payload(state, index, kind: .object, throughKeeper: false) == Block.kept
}

/// The payload of the userdata at `index` when it is of `kind`: 0 when it holds nothing.
func userdataPayload(_ state: OpaquePointer, _ index: Int32, kind: UserdataKind) -> UInt? {
    Block.payload(state, index, kind: kind)
}

/// `__gc`: releases the Swift object and clears the pointer, so a resurrected userdata
/// reads as gone instead of dangling.
func releaseSwiftObject(_ state: OpaquePointer, _ index: Int32, kind: UserdataKind) {
    // Its own pointer only: a row's object kept by its keeper is the keeper's to release
    // (the object `__gc` reaches a row only when the debug library moved it there).
    guard let payload = Block.payload(state, index, kind: kind, throughKeeper: false), payload != Block.kept || kind != .object,
        let pointer = UnsafeMutableRawPointer(bitPattern: payload), let block = lua_touserdata(state, index)
    else { return }
    // Everything after the payload too: a batch's cells die with its RowBatch, and an
    // object revived by a finalizer must find no rows to read (C then asks Swift).
    block.initializeMemory(as: UInt8.self, repeating: 0, count: Block.size(kind))
    Block.write(block, kind: kind, payload: 0)
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}

/// The bytes of a Quarry userdata: a cookie naming its kind, then the payload (a
/// retained pointer, or a date's seconds). The cookie and the size are checked before a
/// payload is believed, so a script that moves a metatable onto another userdata (with
/// the debug library) gets an error, not a wild pointer.
private enum Block {
    /// Objects, batches and results carry more after the payload (`quarry_object_block`,
    /// `quarry_rows_block`, `quarry_results_block`), which their C `__index` reads.
    static func size(_ kind: UserdataKind) -> Int {
        switch kind {
        case .object: return MemoryLayout<quarry_object_block>.size
        case .rows: return MemoryLayout<quarry_rows_block>.size
        case .results, .section: return MemoryLayout<quarry_results_block>.size
        // The cookie, the object, and the block of the row it was made for (its user value).
        case .keeper: return 3 * MemoryLayout<UInt>.size
        default: return 2 * MemoryLayout<UInt>.size
        }
    }
    static func cookie(_ kind: UserdataKind) -> UInt { 0x5155_4152_5259_0000 | UInt(kind.ordinal) }

    static func write(_ block: UnsafeMutableRawPointer, kind: UserdataKind, payload: UInt) {
        block.storeBytes(of: cookie(kind), as: UInt.self)
        block.storeBytes(of: payload, toByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
    }

    /// The cookie and the size say the kind, as they do for the C `__index` of results:
    /// only Quarry writes a userdata's bytes, so a cookie is Quarry's own (a light
    /// userdata has no length, a string no block). Reading the kind's name through the
    /// metatable as well was 4% of making 20,000 objects.
    static func payload(_ state: OpaquePointer, _ index: Int32, kind: UserdataKind, throughKeeper: Bool = true) -> UInt? {
        guard let block = lua_touserdata(state, index), lua_rawlen(state, index) == size(kind),
            block.load(as: UInt.self) == cookie(kind)
        else { return nil }
        let payload = block.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self)
        guard kind == .object, payload == kept, throughKeeper else { return payload }
        // Held by its keeper (`adopt`): 0, a row again, when the keeper is gone, or is
        // another row's (the debug library can move user values).
        var held: UInt = 0
        if lua_getiuservalue(state, index, 2) == LUA_TUSERDATA, let keeper = lua_touserdata(state, -1),
            let object = Self.payload(state, -1, kind: .keeper),
            keeper.load(fromByteOffset: 2 * MemoryLayout<UInt>.size, as: UInt.self) == UInt(bitPattern: block)
        {
            held = object
        }
        quarry_pop(state, 1)
        return held
    }

    /// An object row's payload while its keeper holds its object (no pointer is 1).
    static let kept: UInt = 1
}

/// Pushes a date; `day` when it was read from a column of days, so it prints as its day.
func pushDate(_ state: OpaquePointer, _ seconds: Double, day: Bool = false) {
    let block = lua_newuserdatauv(state, Block.size(.date), 0)!
    Block.write(block, kind: .date, payload: UInt(seconds.bitPattern))
    pushRegistrySlot(state, day ? .dayMetatable : .metatable(.date))
    lua_setmetatable(state, -2)
}

func dateValue(_ state: OpaquePointer, _ index: Int32) -> Double? {
    Block.payload(state, index, kind: .date).map { Double(bitPattern: UInt64($0)) }
}

/// Pushes a new table holding the fields of `kind`'s metatable, less `without` (raw reads
/// and writes: no metamethod runs).
private func pushMetatableCopy(_ state: OpaquePointer, of kind: UserdataKind, without: String? = nil) {
    pushRegistrySlot(state, .metatable(kind))
    lua_createtable(state, 0, 8)
    lua_pushnil(state)
    while lua_next(state, -3) != 0 {
        if let without, lua_type(state, -2) == LUA_TSTRING, luaString(state, -2) == without {
            quarry_pop(state, 1)
            continue
        }
        lua_pushvalue(state, -2)
        quarry_insert(state, -2)
        lua_rawset(state, -4)
    }
    quarry_remove(state, -2)
}

/// The date at `index` as a person reads it: ISO 8601 in UTC, or `2013-01-01` for a
/// date read from a column of days (at its midnight in UTC; any other time, which only
/// an unsaved value can have, is shown whole).
func dateText(_ state: OpaquePointer, _ index: Int32) -> String? {
    guard let seconds = dateValue(state, index) else { return nil }
    guard let day = Value.dayText(seconds), lua_getmetatable(state, index) != 0 else { return Value.iso8601(seconds) }
    pushRegistrySlot(state, .dayMetatable)
    let isDay = lua_rawequal(state, -1, -2) != 0
    quarry_pop(state, 2)
    return isDay ? day : Value.iso8601(seconds)
}

/// An exact decimal, held by its userdata as a Swift object: its text or its value, each
/// worked out from the other once, when first asked. A decimal read from the store is
/// parsed at its first arithmetic or comparison; a computed one is printed at its first
/// `tostring` (a loop of `+ -` on wide decimals printed every intermediate result).
final class DecimalBox {
    private var written: String?
    private var parsed: ExactDecimal??
    init(_ text: String) { written = text }
    init(value: ExactDecimal) { parsed = .some(value) }
    /// As the server writes it.
    var text: String {
        if let written { return written }
        guard case .some(.some(let value)) = parsed else { return "" }
        let text = value.description
        written = text
        return text
    }
    /// The exact value; nil for text past numeric's bounds (or not a decimal).
    var value: ExactDecimal? {
        if let parsed { return parsed }
        let value = DecimalText.value(text)
        parsed = .some(value)
        return value
    }
}

/// Pushes an exact decimal: a userdata of its own kind (Lua has no decimal number; a
/// float would print `195.1` for the server's `195.10`).
func pushDecimal(_ state: OpaquePointer, _ text: String) {
    pushSwiftObject(state, DecimalBox(text), kind: .decimal)
}

/// Pushes a computed decimal, as the server writes it.
func pushDecimal(_ state: OpaquePointer, _ value: ExactDecimal) {
    pushSwiftObject(state, DecimalBox(value: value), kind: .decimal)
}

func decimalText(_ state: OpaquePointer, _ index: Int32) -> String? {
    swiftObject(state, index, kind: .decimal, as: DecimalBox.self)?.text
}

/// The decimal at `index`, nil when it is not one.
func decimalBox(_ state: OpaquePointer, _ index: Int32) -> DecimalBox? {
    swiftObject(state, index, kind: .decimal, as: DecimalBox.self)
}
