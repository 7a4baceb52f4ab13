/// SQL's ORDER BY written as a sort key (`"mag desc"`, `"-mag, place"`): the key is no
/// key of the entity, and "unknown key 'mag desc'" says nothing of what works; the form
/// that sorts is named instead.
extension SortDescriptor {
    /// The line refusing `key` (read with `ascending`) as SQL's order, naming the sort
    /// that works; nil when it reads as no such habit.
    static func sqlHabit(_ key: String, ascending: Bool) -> String? {
        let written = (ascending ? "" : "-") + key
        let parts = written.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
        var habit = parts.count > 1
        let keys = parts.map { part -> String in
            let words = part.split(whereSeparator: \.isWhitespace)
            guard words.count == 2, let direction = words.last.map({ $0.lowercased() }), direction == "desc" || direction == "asc" else {
                return part
            }
            habit = true
            let name = words[0].hasPrefix("-") ? String(words[0].dropFirst()) : String(words[0])
            return direction == "desc" ? "-" + name : name
        }
        // A key with a space of its own (`Original Hire`) is no habit.
        guard habit, keys.allSatisfy({ !$0.isEmpty && !$0.contains(where: \.isWhitespace) }) else { return nil }
        let form = keys.count == 1 ? "sort = \"\(keys[0])\"" : "sort = { " + keys.map { "\"\($0)\"" }.joined(separator: ", ") + " }"
        if parts.count > 1 { return "'\(written)' is several keys in one string; a sort of several keys is a list, as \(form)" }
        return "'\(written)' is SQL's order; a descending key is written with a minus, an ascending one alone, as \(form)"
    }
}
