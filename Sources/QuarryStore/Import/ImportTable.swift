import Foundation
import QuarryModel

/// Rows to import: the columns, their types (inferred from every row, or from a sample),
/// and the rows, read from the start each time `rows` is called.
package struct ImportTable {
    package var columns: [String]
    var types: [ColumnType]
    /// How many rows there are, when the types were inferred from all of them.
    var count: Int?
    var progress = ReadProgress()
    /// A CSV file's first record read as a row, and why (its columns named `column1`, …).
    var firstRowIsData: FirstRowAsData?
    /// Whether the file names its columns (a header, a JSON object's keys); false when
    /// they are `column1`, `column2`, …, which an existing entity takes by position.
    var namedByFile = true
    /// The columns a header names by leaving their field empty, named by their place
    /// (`column5`: `CSVFirstRecord.names`).
    var unnamedColumns: [String] = []
    /// Calls `body` with each row's line and a reader that converts cell i to an
    /// attribute's type. With `check`, each row's cells are first observed into those
    /// types, and a cell that changes one throws `ImportRestart`.
    package var rows: (_ check: [ColumnType]?, _ body: (Int, (Int, AttributeDescription) throws -> Value) throws -> Void) throws -> Void
    /// Fills the pipeline's batches with every row's cells as `attributes` take them,
    /// then `fixed` (the defaults of attributes no column names); run on the parser
    /// thread. The same checks and errors as `rows`, which it reads through unless a
    /// table has a faster way (CSV).
    var produce: Producer

    typealias Producer = (
        _ check: [ColumnType]?, _ attributes: [AttributeDescription], _ fixed: [Value],
        _ pipeline: ImportPipeline
    ) throws -> Void

    init(
        columns: [String], types: [ColumnType], count: Int?, progress: ReadProgress = ReadProgress(),
        produce: Producer? = nil,
        rows: @escaping (_ check: [ColumnType]?, _ body: (Int, (Int, AttributeDescription) throws -> Value) throws -> Void) throws -> Void
    ) {
        self.columns = columns
        self.types = types
        self.count = count
        self.progress = progress
        self.rows = rows
        self.produce =
            produce ?? { check, attributes, fixed, pipeline in
                try Self.produce(through: rows, check, attributes, fixed, pipeline)
            }
    }

    /// `produce` through `rows`: each cell converted to a `Value`, then stored in the batch.
    static func produce(
        through rows: (_ check: [ColumnType]?, _ body: (Int, (Int, AttributeDescription) throws -> Value) throws -> Void) throws -> Void,
        _ check: [ColumnType]?, _ attributes: [AttributeDescription], _ fixed: [Value],
        _ pipeline: ImportPipeline
    ) throws {
        var batch: CellBatch?
        try rows(check) { line, cells in
            if batch == nil { batch = pipeline.take() }
            guard let current = batch else { throw ImportPipeline.Stopped() }
            current.beginRow(line: line)
            for i in attributes.indices {
                let value = try cells(i, attributes[i])
                if value.isNull, !attributes[i].isOptional {
                    throw StoreError.importFailed(
                        path: pipeline.path, line: line, field: .column(i + 1, attributes[i].name),
                        reason: "'\(attributes[i].name)' is required but empty")
                }
                current.put(value)
            }
            for value in fixed { current.put(value) }
            current.endRow()
            if current.isFull {
                pipeline.send(current)
                batch = nil
            }
        }
        if let batch { pipeline.send(batch) }
    }
}

/// A row read after the sample holds a cell the inferred types do not fit: the import
/// starts again, in a new transaction, with `types`.
struct ImportRestart: Error {
    let types: [ColumnType]
}

/// How far a streamed read has gone, for an estimate of the rows in all.
final class ReadProgress {
    var bytesRead = 0
    var size = 0

    /// The rows in all, estimated from the share of the file read so far.
    func estimate(_ rows: Int) -> Int {
        guard size > 0, bytesRead > 0 else { return rows }
        return max(rows, Int(Double(rows) * Double(size) / Double(bytesRead)))
    }
}
