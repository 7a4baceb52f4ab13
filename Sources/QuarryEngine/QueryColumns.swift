import QuarryModel

/// The columns of a statement a person wrote, as `export(sql(...))` writes them, so that
/// `export({ sql = ... })`, which streams the rows instead, writes the same file.
///
/// `sql()`'s rows reach `export` through Lua: each row a table keyed by column name, its
/// NULLs left out. Two columns of one name are one key there, holding the last non-NULL
/// value of the two, and the file has that value under both names; a blob is a Lua
/// string, which reads back as text (written as its bytes, not in base64).
public struct QueryColumns {
    /// Every column's name, in the statement's order (a repeated name each time).
    public let names: [String]
    /// For each column, every column of its name, when some name is repeated; nil when
    /// each name is one column's (nearly always), so a row is written cell by cell.
    public let sources: [[Int32]]?

    public init(_ names: [String]) {
        self.names = names
        guard Set(names).count != names.count else {
            sources = nil
            return
        }
        sources = names.map { name in names.indices.filter { names[$0] == name }.map { Int32($0) } }
    }

    /// The value written for `column` of the cursor's row, as the row read into Lua and
    /// back holds it.
    package func value(_ column: Int, of cursor: any RowCursor) -> Value {
        let value: Value
        if let sources {
            value = sources[column].reversed().lazy.map { cursor.value($0) }.first { !$0.isNull } ?? .null
        } else {
            value = cursor.value(Int32(column))
        }
        return Self.asLuaHoldsIt(value)
    }

    /// A value as a Lua string gives it back: a blob as text, its bytes whole.
    package static func asLuaHoldsIt(_ value: Value) -> Value {
        guard case .blob(let bytes) = value else { return value }
        return Value(storedText: bytes)
    }

    /// Writes the cursor's row through `writer`, a value at a time as the rows of `sql()`
    /// are (`RowCursor.value`): the row-by-row way, which any engine's cursor takes.
    package func writeRow(of cursor: any RowCursor, writer: inout TableWriter, into out: inout [UInt8]) {
        writer.beginRow(into: &out)
        for column in names.indices { writer.value(value(column, of: cursor), into: &out) }
        writer.endRow(into: &out)
    }
}
