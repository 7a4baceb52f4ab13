import QuarryStore
import QuarryStores
import QuarryPredicates

/// Opens a store ready for predicates: the predicate layer's SQL functions (folding,
/// string operators, arithmetic) installed on its connection, so the SQL a predicate
/// compiles to runs there. A namespace rather than an extension of `ObjectContext`, so the
/// store's type stays its own module's.
public enum StoreOpener {
    /// `model`: the model file for a Core Data store that carries none (`--model`).
    /// The registry chooses the store by its location; a server's SQL needs none of these.
    public static func open(_ path: String?, readOnly: Bool = false, model: String? = nil) throws -> ObjectContext {
        try StoreRegistry.open(path, readOnly: readOnly, functions: PredicateFunctions.all, model: model)
    }
}
