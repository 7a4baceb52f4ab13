import QuarryModel

/// What only the layers above the core can do for it, handed to a context when its store
/// is opened (the registry builds it: `StoreRegistry.environment`), so that no layer below
/// waits for a global to be set: reading a model (a model file, or the model a store file
/// carries) for `model()`, and the empty in-memory store `model()` rehearses its
/// definitions in. Each is nil where nothing gave it, and what needs it then refuses.
public struct StoreEnvironment {
    /// Reads the model at a path: a model file or folder, or a store that carries one.
    /// Given from above because model files are read by `QuarryModelFiles`, which the core
    /// does not depend on, so that the two compile side by side.
    package var readingModel: ((String) throws -> CoreDataModel)?
    /// Makes the empty in-memory context `model()` rehearses its definitions in.
    package var makeScratch: (() throws -> ObjectContext)?

    package init(readingModel: ((String) throws -> CoreDataModel)? = nil, makeScratch: (() throws -> ObjectContext)? = nil) {
        self.readingModel = readingModel
        self.makeScratch = makeScratch
    }
}

extension ObjectContext {
    /// Reads the model at `path` (a model file or folder, or a store that carries one, as
    /// the environment reads it).
    public func readModel(_ path: String) throws -> CoreDataModel {
        guard let read = environment.readingModel else {
            throw ModelFileError(.unsupported, path: path, "this context was opened without a model reader")
        }
        return try read(path)
    }
}
