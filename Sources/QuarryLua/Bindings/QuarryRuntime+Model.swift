import CLua
import QuarryStore

/// `model(path)`: a Core Data model file's entities defined in the open store.
extension QuarryRuntime {
    func installModelFunctions() {
        register(Self.modelLibrary)
    }

    /// Reads the model at `path` (.xcdatamodeld, .xcdatamodel, .momd, .mom) and defines its
    /// entities, binding each as a global where the name is free; returns their names.
    @discardableResult
    public func loadModel(_ path: String) throws -> [String] {
        let model = try CoreDataModel.load(contentsOf: path)
        let names = try context.define(model: model, from: path)
        for name in names { bindGlobalIfFree(name) }
        return names
    }

    /// Globals (also fields of `quarry`), registered as lua.c registers a library: name → function.
    static let modelLibrary: [LuaBinding] = [
        LuaBinding("model", QuarryRuntime.luaModel),
    ]

    // MARK: Bindings

    func luaModel(_ call: LuaCall) throws -> Int32 {
        let path = try call.string(1)
        let names = try self.loadModel(path)
        LuaTable.pushList(call.state, names) { _ = self.pushEntity($0) }
        return 1
    }
}
