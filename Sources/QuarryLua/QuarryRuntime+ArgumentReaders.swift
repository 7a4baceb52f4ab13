import CLua
import QuarryModel
import QuarryStore

/// The arguments most bindings read: an object, one of the store in focus, and an object
/// pushed back.
extension QuarryRuntime {
    func object(_ call: LuaCall, _ index: Int32) throws -> ManagedObject {
        if let object = swiftObject(call.state, index, kind: .object, as: ManagedObject.self) { return object }
        // A row that could not be made into its object says why.
        if userdataPayload(call.state, index, kind: .object) == 0 { return try makeObject(call.state, index) }
        throw call.typeError(index, expected: "object")
    }

    /// An object of the open store, for a change or a relationship: one of a store
    /// `.open` closed keeps its attributes for reading, but through the open store its
    /// key would name another row, and a change to it could never be saved.
    func currentObject(_ call: LuaCall, _ index: Int32) throws -> ManagedObject {
        let object = try self.object(call, index)
        try refuseForeign(object)
        return object
    }

    /// Refuses an object of another store than the one in focus: one of a store that is
    /// still open (`open()`) cannot be related to this store's objects, and one of a
    /// store that was closed names another row here.
    func refuseForeign(_ object: ManagedObject) throws {
        guard object.isForeign(to: context) else { return }
        if let other = object.managedObjectContext, let store = openedStore(of: other) ?? (other === openedDefaultContext ? defaultStore : nil) {
            throw LuaError(
                "\(object.objectID) belongs to \(name(of: store)), not \(name(of: focusedStore)): objects of two stores cannot be related "
                    + "(copy it with b.\(object.entity.name):new(o) or copy(objects, b))")
        }
        throw StoreError.closed
    }

    func pushObject(_ object: ManagedObject?) -> Int32 {
        guard let object else {
            lua_pushnil(state)
            return 1
        }
        pushManagedObject(state, object)
        return 1
    }
}
