import CLua
import CQuarryShim
import QuarryStore

/// A to-many relationship as Lua sees it: `#`, `s[i]`, `ipairs`, `:add`, `:remove`,
/// `:contains`. It reads the relationship afresh each time, so it is always current.
final class RelationshipSet {
    let object: ManagedObject
    let name: String
    init(object: ManagedObject, name: String) { self.object = object; self.name = name }
}

extension QuarryRuntime {
    private func set(_ call: LuaCall, _ index: Int32) throws -> RelationshipSet {
        guard let set = swiftObject(call.state, index, kind: .set, as: RelationshipSet.self) else {
            throw call.typeError(index, expected: "set")
        }
        // A set of an object of a store `.open` closed: its key names another row here.
        guard !set.object.isForeign(to: context) else { throw StoreError.closed }
        return set
    }

    private func members(_ set: RelationshipSet) throws -> [ManagedObject] {
        return try context.relatedObjects(set.name, of: set.object)
    }

    func installSetMethods() {
        registerMethods(.set, Self.setMethods)
    }

    /// Methods, found through `__index`.
    static let setMethods: [LuaBinding] = [
        LuaBinding("add", QuarryRuntime.luaSetAdd),
        LuaBinding("remove", QuarryRuntime.luaSetRemove),
        LuaBinding("contains", QuarryRuntime.luaSetContains),
    ]

    func luaSetAdd(_ call: LuaCall) throws -> Int32 {
        let set = try self.set(call, 1)
        let target = try currentObject(call, 2)
        try context.addRelated(target, to: set.name, of: set.object)
        return 0
    }

    func luaSetRemove(_ call: LuaCall) throws -> Int32 {
        let set = try self.set(call, 1)
        let target = try currentObject(call, 2)
        try context.removeRelated(target, from: set.name, of: set.object)
        return 0
    }

    func luaSetContains(_ call: LuaCall) throws -> Int32 {
        let set = try self.set(call, 1)
        let target = try object(call, 2)
        return call.push(try members(set).contains { $0 === target })
    }

    func setMetamethods() -> [(String, LuaFunctionBody)] {
        [
            ("__len", { [unowned self] call in call.push(try self.members(try self.set(call, 1)).count) }),
            ("__index", { [unowned self] call in
                let set = try self.set(call, 1)
                if call.type(2) == LUA_TNUMBER {
                    let i = try call.integer(2)
                    let all = try self.members(set)
                    guard i >= 1, i <= all.count else { return call.pushNil() }
                    return self.pushObject(all[Int(i - 1)])
                }
                let key = try call.string(2)
                if self.pushMethod(.set, key) { return 1 }
                throw LuaError("sets have no method '\(key)' (methods: add, remove, contains; #s and s[i] give the objects)")
            }),
            ("__tostring", { [unowned self] call in
                let set = try self.set(call, 1)
                let ids = try self.members(set).map(\.objectID)
                return call.push("\(set.object.objectID).\(set.name) {\(ids.joined(separator: ", "))}")
            }),
        ]
    }
}
