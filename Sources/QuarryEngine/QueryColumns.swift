import QuarryModel

/// The columns of a statement a person wrote, as `sql()` names them and
/// `export(sql(...))` writes them, so that `export({ sql = ... })`, which streams the rows
/// instead, writes the same file.
///
/// `sql()`'s rows reach Lua as tables keyed by column name: two columns of one name (a
/// join's `id` and `id`) would be one key, and one value shown under both. Each column
/// keeps its own value under a name of its own, made as SQLite names a view's columns
/// (`id`, `id:1`). A blob is a Lua string, which reads back as text (written as its bytes,
/// not in base64).
public struct QueryColumns {
    /// Every column's name, in the statement's order, none repeated (`uniqueNames`).
    public let names: [String]

    public init(_ names: [String]) { self.names = Self.uniqueNames(names) }

    /// `names` made distinct as SQLite makes a view's or `CREATE TABLE ... AS`'s columns
    /// distinct: a name already taken (ASCII letters compared without case) loses any
    /// `:digits` ending and takes `:1`, `:2`, ... until it is free.
    public static func uniqueNames(_ names: [String]) -> [String] {
        func folded(_ name: String) -> String { String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }, as: UTF8.self) }
        var taken = Set(names.map(folded))
        guard taken.count != names.count else { return names }
        taken = []
        // Where each stem's numbering goes on from (the numbers below it are taken), so
        // 2,000 columns of one name are named in one pass, not one try per earlier one.
        var next: [String: Int] = [:]
        return names.map { name in
            var candidate = name
            guard !taken.insert(folded(candidate)).inserted else { return candidate }
            var stem = Substring(candidate)
            // SQLite drops a `:digits` ending (or a bare `:`) before numbering.
            if let colon = stem.lastIndex(of: ":"), stem[stem.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber }) {
                stem = stem[..<colon]
            }
            let key = folded(String(stem))
            var count = next[key] ?? 1
            repeat {
                candidate = "\(stem):\(count)"
                count += 1
            } while !taken.insert(folded(candidate)).inserted
            next[key] = count
            return candidate
        }
    }

    /// The value written for `column` of the cursor's row, as the row read into Lua and
    /// back holds it.
    package func value(_ column: Int, of cursor: any RowCursor) -> Value {
        Self.asLuaHoldsIt(cursor.value(Int32(column)))
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
