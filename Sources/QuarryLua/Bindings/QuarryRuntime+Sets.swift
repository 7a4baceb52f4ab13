import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

/// A to-many relationship as Lua sees it: `#`, `s[i]`, `ipairs`, `:add`, `:remove`,
/// `:contains`. It reads the relationship afresh each time, so it is always current.
final class RelationshipSet {
    let object: ManagedObject
    let name: String
    init(object: ManagedObject, name: String) {
        self.object = object
        self.name = name
    }
}

extension QuarryRuntime {
    func set(_ call: LuaCall, _ index: Int32) throws -> RelationshipSet {
        guard let set = swiftObject(call.state, index, kind: .set, as: RelationshipSet.self) else {
            throw call.typeError(index, expected: "set")
        }
        // A set of an object of a store `.open` closed: its key names another row here.
        guard !set.object.isForeign(to: context) else { throw StoreError.closed }
        return set
    }

    func members(_ set: RelationshipSet) throws -> [ManagedObject] {
        return try context.relatedObjects(set.name, of: set.object)
    }
}
