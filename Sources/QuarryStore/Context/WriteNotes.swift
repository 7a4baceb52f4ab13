/// Notes on values a write kept other than they were given, where that is the column's
/// nature and no error: a time written to a column that keeps dates alone is dropped, as
/// psql drops it writing to a `date` column. Said once per column, so a loop of writes
/// gives one line, not one a row.
struct WriteNotes {
    private var said: Set<String> = []
    private var pending: [String] = []

    /// Queues `note` unless one was said for `column` ("Entity.key").
    mutating func add(_ column: String, _ note: String) {
        guard said.insert(column).inserted else { return }
        pending.append(note)
    }

    mutating func take() -> [String] {
        defer { pending = [] }
        return pending
    }
}

extension ObjectContext {
    /// Notes queued by the writes so far, each once; the caller says them.
    public func takeWriteNotes() -> [String] { writeNotes.take() }

    /// Queues the note for `value` written to `key` of `entity` when the key's column is a
    /// server's `date` and the value has a time of day, which the server drops.
    func noteDayColumn(_ entity: EntityDescription, _ key: String, _ value: Value) {
        guard case .date(let seconds) = value, seconds != (seconds / 86_400).rounded(.down) * 86_400,
              mapped(entity).dayColumns.contains(key) else { return }
        writeNotes.add("\(entity.name).\(key)", "\(entity.name).\(key) keeps days alone (date): the time of day of \(value.displayString) "
            + "and of any other date written to it is dropped")
    }
}
