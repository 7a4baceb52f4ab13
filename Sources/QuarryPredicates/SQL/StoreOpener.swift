import QuarryStore

/// Opens a store ready for predicates: the predicate layer's SQL functions (folding,
/// string operators, arithmetic) installed on its connection, so the SQL a predicate
/// compiles to runs there. A namespace rather than an extension of `ObjectContext`, so the
/// store's type stays its own module's.
public enum StoreOpener {
    /// `model`: the model file for a Core Data store that carries none (`--model`).
    /// A `postgres://` URL opens a PostgreSQL schema, whose SQL needs none of these.
    public static func open(_ path: String?, readOnly: Bool = false, model: String? = nil) throws -> ObjectContext {
        if let path, PostgresURL.isURL(path) {
            if model != nil { throw StoreError.database(message: "--model reads a Core Data store's model; a PostgreSQL store's entities are its tables") }
            return try ObjectContext(postgres: path, readOnly: readOnly)
        }
        return try ObjectContext(path: path, readOnly: readOnly, functions: PredicateFunctions.all, model: model)
    }
}
