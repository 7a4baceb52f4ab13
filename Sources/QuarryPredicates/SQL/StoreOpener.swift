import QuarryStore

/// Opens a store ready for predicates: the predicate layer's SQL functions (folding,
/// string operators, arithmetic) installed on its connection, so the SQL a predicate
/// compiles to runs there. A namespace rather than an extension of `ObjectContext`, so the
/// store's type stays its own module's.
public enum StoreOpener {
    /// `model`: the model file for a Core Data store that carries none (`--model`).
    /// A `postgres://` URL opens a PostgreSQL schema, whose SQL needs none of these (its
    /// `model` is defined in it as in any store that is not Core Data's, by the caller).
    public static func open(_ path: String?, readOnly: Bool = false, model: String? = nil) throws -> ObjectContext {
        if let path, PostgresURL.isURL(path) { return try ObjectContext(postgres: path, readOnly: readOnly) }
        return try ObjectContext(path: path, readOnly: readOnly, functions: PredicateFunctions.all, model: model)
    }
}
