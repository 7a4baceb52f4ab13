import QuarryStore

/// SQLite's names are case-insensitive: on a file Quarry did not make, `count("customer")`
/// names the table `Customer`, as `SELECT count(*) FROM customer` does. Resolved where a
/// request takes an entity's name as a string, before the store is asked; Quarry's own
/// entities, and a name two tables share but for case, keep their exact spelling.
extension QuarryRuntime {
    func resolvedEntityName(_ name: String) -> String {
        // A name the model has is looked up, not searched for: every count() and fetch()
        // asks, and a file of 600 views made the search 330,000 instructions a call.
        guard let context = openedContext, context.managedObjectModel[name] == nil else { return name }
        let folded = Self.asciiLowercased(name)
        let matches = context.entities.filter { entity in
            Self.asciiLowercased(entity.name) == folded && (context.mapped(entity).layout == .foreignView || context.mapped(entity).keepsAnyType)
        }
        return matches.count == 1 ? matches[0].name : name
    }

    /// SQLite folds ASCII letters only (`Ä` and `ä` are two names to it).
    static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
