import QuarryStore

extension ObjectContext {
    /// Opens a store with the predicate layer's SQL functions installed.
    public static func open(_ path: String?, readOnly: Bool = false) throws -> ObjectContext {
        try ObjectContext(path: path, readOnly: readOnly, functions: PredicateFunctions.all)
    }
}
