import QuarryStore

extension ObjectContext {
    /// Opens a store with the predicate layer's SQL functions installed.
    /// `model`: the model file for a Core Data store that carries none (`--model`).
    public static func open(_ path: String?, readOnly: Bool = false, model: String? = nil) throws -> ObjectContext {
        try ObjectContext(path: path, readOnly: readOnly, functions: PredicateFunctions.all,
                          setUp: PredicateFunctions.addTextFunctions, model: model)
    }
}
