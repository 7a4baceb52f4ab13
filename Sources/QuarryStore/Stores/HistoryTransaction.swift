/// One recorded transaction: a save or a batch change.
public struct HistoryTransaction {
    public var token: Int64
    public var time: Double
    public var author: String?
    public var inserted: [String]
    public var updated: [String]
    public var deleted: [String]
}
