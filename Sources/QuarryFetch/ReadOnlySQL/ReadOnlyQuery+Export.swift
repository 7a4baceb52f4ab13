import QuarryEngine
import QuarryModel
import QuarryStore

extension ReadOnlyQuery {
    /// Writes the statement's rows to `path` (CSV, TSV or JSON by its suffix, "-" standard
    /// output) as `export(sql(...))` writes them, byte for byte, but streamed: the engine
    /// writes each row as it comes (`PreparedQuery.exportRows`), so memory stays at the
    /// file's chunk however many rows there are. Checked as `execute` checks it, before
    /// the file is opened: a refused statement writes nothing, and one that fails midway
    /// leaves the destination as it was (`OutputFile`). Returns how many rows.
    @discardableResult
    public func export(in context: ObjectContext, to path: String) throws -> Int {
        try prepareChecked(in: context, for: "export") { statement in
            let columns = QueryColumns(statement.columnNames)
            var writer = try ExportWriter(path: path, columns: columns.names)
            _ = try statement.exportRows(arguments: arguments, columns: columns, writer: &writer.table, file: writer.file)
            return try writer.finish()
        }
    }
}
