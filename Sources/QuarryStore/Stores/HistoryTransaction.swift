/// One recorded transaction: a save or a batch change.
public struct HistoryTransaction {
    public var token: Int64
    public var time: Double
    public var author: String?
    public var inserted: [String]
    public var updated: [String]
    public var deleted: [String]

    package init(token: Int64, time: Double, author: String? = nil, inserted: [String], updated: [String], deleted: [String]) {
        self.token = token
        self.time = time
        self.author = author
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}
