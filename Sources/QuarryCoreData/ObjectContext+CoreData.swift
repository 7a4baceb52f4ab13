import QuarryStore

extension ObjectContext {
    /// The Core Data store behind the context, when it is one: for the Core Data layer's
    /// own code and its tests. Layers above ask `capabilities` and the members below.
    public var coreData: CoreDataStore? { store as? CoreDataStore }
}
