import Foundation
import QuarryModel
import QuarryStore

/// Rows written to a file (or standard output, "-") as CSV, TSV for a `.tsv` path, or
/// JSON for a `.json` path, by the one
/// `TableWriter` (see it for the quoting), in chunks as they come, through `OutputFile`
/// (a symlink's target, a FIFO or a device is written as `>` would, and a plain file
/// stays as it was when the export fails). Results and dictionary rows both use it.
struct ExportWriter {
    let file: OutputFile
    var table: TableWriter
    var count: Int { table.rows }

    init(path: String, columns: [String]) throws {
        // A suffix Quarry does not write (`.xlsx`) is refused before the file is opened:
        // CSV bytes under that name would mislead whoever opens it.
        guard let format = TableWriter.exportFormat(forPath: path) else {
            let suffix = TableWriter.exportSuffix(of: path)
            throw StoreError.cannotWrite(
                operation: "export", path: path,
                reason: "Quarry does not write .\(suffix) files; it writes .csv, .tsv (or .tab) and .json, chosen by the path's suffix "
                    + "(a path without one, or \"-\" for standard output, gets CSV)")
        }
        table = TableWriter(format: format, columns: columns)
        // "-" is standard output, as for most shells' tools.
        file = path == "-" ? try OutputFile(standardOutputFor: "export") : try OutputFile(path: path, operation: "export")
        let table = self.table
        try file.append { table.begin(into: &$0) }
    }

    mutating func write(_ values: [Value]) throws {
        try file.append { table.row(values, into: &$0) }
    }

    /// Closes the array and puts the file in place; returns how many rows went out.
    func finish() throws -> Int {
        try file.append { out in
            table.end(into: &out)
            if table.format == .json { out.append(10) }
        }
        try file.commit()
        return count
    }
}

/// Writes dictionary rows (`sql()`, `summarize()`, group/having) as `export` writes results.
@discardableResult
public func exportRows(_ rows: QueryRows, to path: String) throws -> Int {
    var writer = try ExportWriter(path: path, columns: rows.columns)
    for row in rows.rows { try writer.write(row) }
    return try writer.finish()
}
