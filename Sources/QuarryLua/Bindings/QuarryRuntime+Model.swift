import CLua
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// `model(path)`: a Core Data model file's entities defined in the open store.
extension QuarryRuntime {
    /// Reads the model at `path` (.xcdatamodeld, .xcdatamodel, .momd, .mom) and defines its
    /// entities, binding each as a global where the name is free; returns their names.
    @discardableResult
    public func loadModel(_ path: String) throws -> [String] {
        let names = try ProcessDeadline.during("defining the model \(ErrorRendering.escaped(path))") {
            try context.define(model: context.readModel(path), from: path)
        }
        for name in names { bindGlobalIfFree(name) }
        return names
    }
}
