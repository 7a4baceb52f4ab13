import QuarryStore

/// A walk over results in index order (`ipairs(r)`): it goes over the objects the results
/// held when it began, as a loop over Core Data's `fetchedObjects` array does, however the
/// loop's own changes move objects into or out of the live results. Without it, changing
/// an object so that it leaves the results (`it.done = true` over `done == false`) moved
/// the next one into its place, and the loop skipped every other object.
public struct ResultsWalk {
    let generation: Int
    let pendingGeneration: Int
    /// The unsaved changes merged in when the walk began; nil for the saved rows alone.
    let merged: MergedKeys?
}

extension FetchResults {
    /// A walk from the results as they are now.
    public func beginWalk() throws -> ResultsWalk {
        ResultsWalk(generation: context.generation, pendingGeneration: context.pendingGeneration, merged: try merged()?.keys)
    }

    /// Whether objects may have changed since `walk` began; until then the live results
    /// are the walk's, read as fast as ever.
    public func hasMoved(since walk: ResultsWalk) -> Bool {
        context.generation != walk.generation || context.pendingGeneration != walk.pendingGeneration
    }

    /// Whether `walk`, moved or not, still goes over the saved rows as `rows(around:)`
    /// reads them: no save since it began, no unsaved change merged in when it began (its
    /// objects are then the saved rows in order, as `object(at:in:)` gives them), and no
    /// relationship prefetched. A loop changing each object it walks reads the rest as
    /// cells, each object made where it is used, not every one through Swift.
    public func walksSavedRows(_ walk: ResultsWalk) -> Bool {
        context.generation == walk.generation && walk.merged == nil && request.prefetch.isEmpty
    }

    /// The object at a 0-based index of `walk`, or nil past its end. A save inside the
    /// walk changed the saved rows it was reading: it goes on over the results as they are.
    public func object(at index: Int, in walk: ResultsWalk) throws -> ManagedObject? {
        guard context.generation == walk.generation else { return try object(at: index) }
        if let merged = walk.merged { return try object(at: index, merged: merged) }
        return try savedObject(at: index)
    }
}
