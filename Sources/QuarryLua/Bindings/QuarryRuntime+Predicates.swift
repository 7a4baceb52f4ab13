import CLua
import CQuarryShim
import QuarryPredicates
import QuarryStore
import QuarrySwiftReading

/// A predicate made in Lua with `predicate(...)`, bound to an entity when first used.
final class PredicateHandle {
    let predicate: Predicate
    /// A `#Predicate<T>`'s reading, for its `T`; nil for a format string.
    let swift: SwiftPredicateReader.Read?
    init(_ predicate: Predicate, swift: SwiftPredicateReader.Read? = nil) {
        self.predicate = predicate
        self.swift = swift
    }
}

extension QuarryRuntime {
    /// `null` and `quarry.null`: nil where a Lua table cannot hold nil (`args = { null }`,
    /// `vars = { X = null }`). One shared table, recognised by identity.
    func installNull() {
        let s = state
        lua_createtable(s, 0, 0)
        lua_createtable(s, 0, 2)
        pushFunction("__tostring") { call in call.push("null") }
        LuaTable.setField(s, -2, "__tostring")
        pushFunction("__newindex") { _ in throw LuaError("null holds no fields") }
        LuaTable.setField(s, -2, "__newindex")
        lua_setmetatable(s, -2)
        lua_pushvalue(s, -1)
        setRegistryField(s, nullRegistryKey)
        setGlobalAndQuarryField("null")
    }

    /// The predicate a `predicate(...)` object at `index` holds, or nil for any other value.
    func predicateObject(_ state: OpaquePointer, _ index: Int32) -> Predicate? {
        swiftObject(state, index, kind: .predicate, as: PredicateHandle.self)?.predicate
    }

    /// Refuses a `#Predicate<T>` for `entity` when `T` is neither it nor an ancestor of it
    /// (the predicate would name keys `entity` need not have), as text, with `T`'s column.
    func checkSwiftType(_ read: SwiftPredicateReader.Read, entity: String) throws {
        guard read.typeName != nil, read.typeName != entity else { return }
        var ancestors: [String] = []
        var parent = try context.entity(named: entity).parent
        while let name = parent, !ancestors.contains(name), ancestors.count < 64 {
            ancestors.append(name)
            parent = try? context.entity(named: name).parent
        }
        try SwiftPredicateReader.check(read, entity: entity, ancestors: ancestors)
    }

    /// `checkSwiftType` for the `predicate(...)` object at `index`.
    func checkPredicateObjectType(_ state: OpaquePointer, _ index: Int32, entity: String) throws {
        guard let read = swiftObject(state, index, kind: .predicate, as: PredicateHandle.self)?.swift else { return }
        try checkSwiftType(read, entity: entity)
    }

    func predicateHandle(_ call: LuaCall, _ index: Int32) throws -> PredicateHandle {
        guard let handle = swiftObject(call.state, index, kind: .predicate, as: PredicateHandle.self) else {
            throw call.typeError(index, expected: "predicate")
        }
        return handle
    }
}
