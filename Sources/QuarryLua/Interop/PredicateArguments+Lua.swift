import CLua
import CQuarryShim
import QuarryModel
import QuarryPredicates
import QuarryStore

/// Where the registry keeps `null`, the stand-in for nil inside tables.
let nullRegistryKey = "quarry.null"

/// True when the value at `index` is `null` (`quarry.null`).
func isNullMarker(_ state: OpaquePointer, _ index: Int32) -> Bool {
    guard lua_type(state, index) == LUA_TTABLE else { return false }
    let absolute = lua_absindex(state, index)
    pushRegistryField(state, nullRegistryKey)
    defer { quarry_pop(state, 1) }
    return lua_rawequal(state, -1, absolute) != 0
}

/// A Lua value as a predicate argument: a value, or an array table as a list (`IN %@`);
/// `null` is nil.
func predicateArgument(_ state: OpaquePointer, _ index: Int32) -> PredicateArgument? {
    if isNullMarker(state, index) { return .value(.null) }
    if let object = swiftObject(state, index, kind: .object, as: ManagedObject.self) { return .object(ObjectReference(object)) }
    guard lua_type(state, index) == LUA_TTABLE else { return luaValue(state, index).map(PredicateArgument.value) }
    let table = lua_absindex(state, index)
    var values: [Value] = []
    var objects: [ObjectReference] = []
    for i in stride(from: 1, through: LuaTable.length(state, table), by: 1) {
        LuaTable.element(state, table, i)
        defer { quarry_pop(state, 1) }
        if let object = swiftObject(state, -1, kind: .object, as: ManagedObject.self) {
            objects.append(ObjectReference(object))
            continue
        }
        if isNullMarker(state, -1) {
            values.append(.null)
            continue
        }
        guard let value = luaValue(state, -1) else { return nil }
        values.append(value)
    }
    if !objects.isEmpty { return values.isEmpty ? .objects(objects) : nil }
    return .list(values)
}

func pushArgument(_ state: OpaquePointer, _ argument: PredicateArgument) {
    switch argument {
    case .value(let value): pushValue(state, value)
    case .list(let values):
        LuaTable.pushList(state, values) { pushValue(state, $0) }
    case .object(let reference):
        pushManagedObject(state, reference.object)
    case .objects(let references):
        LuaTable.pushList(state, references) { pushManagedObject(state, $0.object) }
    }
}

/// `t[1..n]` as predicate arguments; `what` names the table in messages, as an option of
/// `operation` when one is given.
func predicateArguments(_ state: OpaquePointer, _ table: Int32, what: String, operation: String? = nil) throws -> [PredicateArgument] {
    try LuaTable.array(state, table) { i in
        guard let argument = predicateArgument(state, -1) else {
            throw OptionError("\(what)[\(i)]", mustBe: "a value or a list of values", operation: operation)
        }
        return argument
    }
}

/// A table of name → value (`vars = { NAME = value }`, a `#Predicate`'s captured values).
func namedPredicateArguments(_ state: OpaquePointer, _ table: Int32, what: String, operation: String? = nil) throws -> [String: PredicateArgument] {
    var named: [String: PredicateArgument] = [:]
    for key in LuaTable.stringKeys(state, table).keys {
        LuaTable.field(state, table, key)
        defer { quarry_pop(state, 1) }
        guard let value = predicateArgument(state, -1) else {
            throw OptionError("\(what).\(key)", mustBe: "a value or a list of values", operation: operation)
        }
        named[key] = value
    }
    return named
}

extension LuaCall {
    /// Arguments `first...` of the call as predicate arguments.
    func predicateArguments(from first: Int32) throws -> [PredicateArgument] {
        guard argumentCount >= first else { return [] }
        return try (first...argumentCount).map { i in
            // `fetch("Item", nil, { sort = "-name" })` guesses that options follow the
            // arguments: they are the table form's, and a table of names is no list.
            if type(i) == LUA_TTABLE, !isNullMarker(state, i), LuaTable.hasStringKey(state, i) {
                // The table form of the method called: `Item:first{ ... }` for first.
                let form =
                    functionName == "first"
                    ? #"Item:first{ predicate = "...", sort = "-key" }"# : #"fetch{ "Item", predicate = "...", sort = "-key" }"#
                throw argumentError(i, "a table of named options is no predicate argument; options go in the table form: " + form)
            }
            guard let argument = predicateArgument(state, i) else {
                throw argumentError(i, "\(typeName(i)) cannot be a predicate argument; use a string, number, boolean, date, nil or a list")
            }
            return argument
        }
    }
}
