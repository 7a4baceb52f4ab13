/// A sectioned request's rows as one flat request reads them: the same rows in the same
/// order, so a limit counts the rows the sectioned results hold (sections are made from
/// those rows, as NSFetchedResultsController makes them).
extension FetchRequest {
    /// Without its section key, which leads the sort instead, as sections must be
    /// contiguous (NSFetchedResultsController requires it); when the sort already starts
    /// with the key under a folding comparison, the key's plain order follows it, so equal
    /// keys stay together. A request without sections is itself.
    public var flattened: FetchRequest {
        guard let key = sectionKey else { return self }
        var flat = self
        flat.sectionKey = nil
        if let first = sortDescriptors.first, first.key == key {
            if first.comparison != .binary { flat.sortDescriptors.insert(SortDescriptor(key: key, ascending: first.ascending), at: 1) }
        } else {
            flat.sortDescriptors.insert(SortDescriptor(key: key), at: 0)
        }
        return flat
    }
}
