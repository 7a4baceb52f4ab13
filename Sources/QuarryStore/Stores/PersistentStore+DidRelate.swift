extension PersistentStore {
    /// Only another program's file reads a join table's shape from what `relate()` made.
    package func didRelate(_ table: String, in context: ObjectContext) {}
}
