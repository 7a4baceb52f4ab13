/// Why `name` cannot name an entity, an attribute or a column, or nil when it can.
/// SQLite reads a quoted identifier only up to a NUL byte, so a name holding one would
/// reach it as `unrecognized token`; empty names cannot be written back by a CSV header.
/// Shared by import (header columns, JSON keys, the entity named) and fit for `entity`.
public func nameProblem(_ name: String) -> String? {
    if name.isEmpty { return "is empty" }
    if name.utf8.contains(0) { return "holds a NUL byte" }
    return nil
}

/// `name` as a message shows it: quoted, with NUL bytes as `\0` (a terminal would drop
/// them, and the rest of the line with some tools).
public func shownName(_ name: String) -> String {
    "'" + name.replacingOccurrences(of: "\0", with: "\\0") + "'"
}
