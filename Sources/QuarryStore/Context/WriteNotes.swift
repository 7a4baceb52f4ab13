/// Notes on values a write kept other than they were given, where that is the column's
/// nature and no error: a time written to a column that keeps dates alone is dropped, as
/// psql drops it writing to a `date` column. Said once per column, so a loop of writes
/// gives one line, not one a row.
package struct WriteNotes {
    private var said: Set<String> = []
    private var pending: [String] = []

    /// Queues `note` unless one was said for `column` ("Entity.key").
    package mutating func add(_ column: String, _ note: String) {
        guard said.insert(column).inserted else { return }
        pending.append(note)
    }

    /// Queues `note` each time (what one call did, such as the links a delete takes).
    package mutating func add(_ note: String) {
        pending.append(note)
    }

    mutating func take() -> [String] {
        defer { pending = [] }
        return pending
    }
}
