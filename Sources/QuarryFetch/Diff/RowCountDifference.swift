/// A table left out of a diff for want of a key, whose two copies hold different numbers
/// of rows: `events: 1 more row in this store`. Which rows, no key can say; that some
/// were added or deleted, the counts do.
public struct RowCountDifference: Sendable, Equatable {
    public var entity: String
    public var old: Int
    public var new: Int

    /// The line saying it, with `oldName` and `newName` for the two sides.
    public func line(old oldName: String, new newName: String) -> String {
        let more = abs(old - new)
        return
            "\(entity): \(more) more row\(more == 1 ? "" : "s") in \(old > new ? oldName : newName) (\(old) against \(new), not compared row by row)"
    }
}
