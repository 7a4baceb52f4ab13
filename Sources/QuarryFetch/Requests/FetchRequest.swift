import QuarryPredicates
import QuarryStore

/// What to fetch: NSFetchRequest's entity, predicate, sort descriptors, limit, offset
/// and batch size.
public struct FetchRequest {
    public var entityName: String
    public var predicate: Predicate?
    public var sortDescriptors: [SortDescriptor]
    /// nil or 0: no limit, as Core Data.
    public var limit: Int?
    public var offset: Int
    /// How many objects one query loads.
    public var batchSize: Int
    /// The key path that groups the results into sections (nil: flat results).
    public var sectionKey: String?
    /// Unsaved inserts, changes and deletes of the context show in the results, placed
    /// where the sort puts them (Core Data's default).
    public var includesPendingChanges = true
    /// Relationships loaded for each batch of objects with one query each, as
    /// `relationshipKeyPathsForPrefetching`.
    public var prefetch: [String] = []
    /// Rows of the entity's sub-entities are included (Core Data's `includesSubentities`).
    public var includesSubentities = true

    public init(
        entityName: String, predicate: Predicate? = nil, sortDescriptors: [SortDescriptor] = [],
        limit: Int? = nil, offset: Int = 0, batchSize: Int = 200
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.limit = limit
        self.offset = offset
        self.batchSize = batchSize
    }
}

extension FetchRequest {
    /// Runs the request now: live results over `context`.
    public func execute(in context: ObjectContext) throws -> FetchResults {
        try FetchResults(self, context: context)
    }

    /// The number of objects the request matches, counted by SQLite.
    public func count(in context: ObjectContext) throws -> Int {
        try FetchResults(self, context: context).count()
    }
}
