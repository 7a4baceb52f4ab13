import QuarryModelFiles

/// What only the layers above the core can do for it, handed to a context when its store
/// is opened (the registry builds it: `StoreRegistry.environment`), so that no layer below
/// waits for a global to be set: reading the model a store file carries where a model file
/// is asked for (`model()`), and the empty in-memory store `model()` rehearses its
/// definitions in. Each is nil where nothing gave it, and what needs it then refuses.
public struct StoreEnvironment {
    /// Reads the model a store file carries (a Core Data store's model cache).
    package var readingStore: ((String) throws -> CoreDataModel)?
    /// Makes the empty in-memory context `model()` rehearses its definitions in.
    package var makeScratch: (() throws -> ObjectContext)?

    package init(readingStore: ((String) throws -> CoreDataModel)? = nil, makeScratch: (() throws -> ObjectContext)? = nil) {
        self.readingStore = readingStore
        self.makeScratch = makeScratch
    }
}

extension ObjectContext {
    /// Reads the model at `path` (a model file or folder, or a store that carries one, as
    /// the environment reads it).
    public func readModel(_ path: String) throws -> CoreDataModel {
        try CoreDataModel.load(contentsOf: path, readingStore: environment.readingStore)
    }
}
