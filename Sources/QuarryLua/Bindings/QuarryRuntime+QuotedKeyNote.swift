import QuarryPredicates

extension QuarryRuntime {
    /// A key's name in quotes, or given for `%@`, compared with a constant: the predicate
    /// runs as written, and this says once, for every request alike, how the key is
    /// written (`Predicate.quotedKeyHints`).
    func noteQuotedKeys(_ predicate: Predicate, entity: String?) {
        guard let entity, let description = try? context.entity(named: entity) else { return }
        for hint in predicate.quotedKeyHints(keys: description.keyNames) where wildcardNotices.insert(hint).inserted {
            writeNotice("note: " + hint)
        }
    }
}
