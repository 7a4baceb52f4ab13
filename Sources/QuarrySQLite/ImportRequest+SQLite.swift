import CQuarrySQLite
import CQuarrySignals
import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// An import's rows inserted into a SQLite file (`PersistentStore.load` of every
/// `SQLiteStore`): one write transaction of the connection's database, the rows bound in
/// C a batch at a time.
extension SQLiteStore {
    package func load(
        _ request: ImportRequest, _ table: ImportTable, check: [ColumnType]?, attributes: [AttributeDescription],
        defaults: [AttributeDescription], entity: EntityDescription, creating: Bool, session: StoreSession,
        progress: ((Int, Int) -> Void)?
    ) throws -> Int {
        try request.loadIntoSQLite(
            table, check: check, attributes: attributes, defaults: defaults, entity: entity,
            creating: creating, store: self, in: session, progress: progress)
    }
}

extension ImportRequest {
    /// Inserts `table`'s rows in one transaction, making `entity`'s table first when
    /// `creating`; returns how many. SQLite's refusal is the import's, an interrupt stays
    /// one.
    func loadIntoSQLite(
        _ table: ImportTable, check: [ColumnType]?, attributes: [AttributeDescription],
        defaults: [AttributeDescription], entity: EntityDescription, creating: Bool, store: any SQLiteStore,
        in session: StoreSession, progress: ((Int, Int) -> Void)?
    ) throws -> Int {
        let columns = (attributes.map(\.name) + defaults.map(\.name)).map(quoteIdentifier).joined(separator: ", ")
        let marks = Array(repeating: "?", count: attributes.count + defaults.count).joined(separator: ", ")
        let sql =
            columns.isEmpty
            ? "INSERT INTO \(session.mapping.storage(of: entityName).writtenTable) DEFAULT VALUES"
            : "INSERT INTO \(session.mapping.storage(of: entityName).writtenTable) (\(columns)) VALUES (\(marks))"
        var rows = 0
        do {
            // Made again from the start where the file declares a key SQLite cannot check.
            try session.connection.database.writeUncheckingKeysSQLiteCannotCheck { db, _ in
                if creating {
                    // SQLite's own refusal ("too many columns on X") names no line and comes
                    // after the table's SQL is built; this says what the header holds.
                    let limit = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_COLUMN, -1))
                    if table.columns.count + 1 > limit {
                        throw StoreError.importFailed(
                            path: path, line: 1,
                            reason: "\(table.columns.count) columns are too many: a table holds at most \(limit - 1) besides its key")
                    }
                    try SQLiteDefinitionWrites.write(entity, replacing: nil, in: db, store: store, session: session)
                }
                let fixed = defaults.compactMap(\.defaultValue)
                // A table of a file Quarry did not create keeps its columns' formats.
                rows = try ForeignFileStore.keepingFormats(of: entity, attributes + defaults, session: session, in: db) {
                    let insert = {
                        try self.insert(
                            table, check: check, attributes: attributes, fixed: fixed, sql: sql,
                            decimalsAsDoubles: session.sqlDialect.keepsDecimalsAsDoubles, progress: progress, db)
                    }
                    return try store.recordingImport(into: entity, in: db, session: session, insert)
                }
            }
        } catch let error as DatabaseError {
            if error.resultCode == .SQLITE_INTERRUPT { throw StoreError(error) }
            // A function the file's triggers call names them, as a save's refusal does.
            let named = (TriggerFunctions.named(StoreError(error), session: session).engineFailure as? SQLiteFailure)?.said
            throw StoreError.importFailed(path: path, line: nil, reason: named ?? error.message ?? "\(error)")
        }
        return rows
    }

    /// Inserts every row of `table`: a parser thread reads and converts the cells into
    /// batches (`ImportPipeline`) while this thread, the connection's, binds and steps
    /// them, several rows per INSERT. Returns the rows inserted; the parser thread has
    /// ended by the time this returns or throws.
    private func insert(
        _ table: ImportTable, check: [ColumnType]?, attributes: [AttributeDescription], fixed: [Value],
        sql: String, decimalsAsDoubles: Bool, progress: ((Int, Int) -> Void)?, _ db: Database
    ) throws -> Int {
        guard let connection = db.sqliteConnection else { return 0 }
        let width = attributes.count + fixed.count
        let variables = Int(sqlite3_limit(connection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        // 32 rows a statement take most of what fewer statements save (one INSERT per row
        // spent half its time starting the statement and updating sqlite_sequence).
        let perStatement = width == 0 ? 1 : max(1, min(32, variables / width))
        let one = try db.makeStatement(sql: sql)
        let many =
            perStatement > 1
            ? try db.makeStatement(
                sql: sql + String(repeating: ", (" + Array(repeating: "?", count: width).joined(separator: ", ") + ")", count: perStatement - 1))
            : nil
        // About 64k cells a batch (a wide table gets fewer rows), a whole number of statements.
        let rowsPerBatch = max(perStatement, min(1024, 65_536 / max(width, 1)) / perStatement * perStatement)
        let pipeline = try startPipeline(table, check: check, attributes: attributes, fixed: fixed, rowsPerBatch: rowsPerBatch)
        defer { pipeline.finish() }
        // Decimal cells come as the file wrote them: each becomes the double the column keeps.
        let decimals: [(Int, String)] =
            decimalsAsDoubles ? attributes.enumerated().filter { $0.element.type == .decimal }.map { ($0.offset, $0.element.name) } : []
        var rows = 0
        while let batch = try pipeline.next() {
            // Rows are short statements SQLite's progress handler may never see: ask here.
            if quarry_should_stop() != 0 { throw StoreError.stopped() }
            if !decimals.isEmpty { try keepAsDoubles(decimals, of: batch) }
            var failed: Int32 = 0
            let code = quarry_insert_cells(
                many?.sqliteStatement, Int32(perStatement), one.sqliteStatement, Int32(width),
                Int32(batch.rows), batch.kinds, batch.values, batch.lengths,
                batch.arena.assumingMemoryBound(to: UInt8.self), &failed)
            if code != SQLITE_DONE {
                let message = String(cString: sqlite3_errmsg(connection))
                // A constraint a row breaks (UNIQUE, say) is reported at that row's line.
                if code & 0xff == SQLITE_CONSTRAINT, Int(failed) < batch.lines.count {
                    throw StoreError.importFailed(path: path, line: batch.lines[Int(failed)], reason: message)
                }
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
            }
            inserted(batch, rows: &rows, table, pipeline, progress: progress)
        }
        return rows
    }

    /// Each decimal cell of `columns` (index, attribute name) as the double the store keeps
    /// it as, refused in one line when that double is another number: the check a save
    /// makes (`DecimalText.inexactAsDouble`), so an import does not round silently what a
    /// save refuses. The refusal ends the transaction, so nothing is written.
    private func keepAsDoubles(_ columns: [(Int, String)], of batch: CellBatch) throws {
        for row in 0..<batch.rows {
            for (column, name) in columns {
                let cell = row * batch.width + column
                guard let text = batch.text(ofCell: cell) else { continue }
                if let why = DecimalText.inexactAsDouble(text) {
                    let line = batch.lines[row]
                    let what = "'\(name)' is decimal \(text), \(why); nothing was written"
                    // A JSON array's rows are its elements, counted from 1 (`JSONImport`).
                    if readsJSON {
                        throw StoreError.importFailed(path: path, line: nil, field: .key(name, element: line), reason: "element \(line): " + what)
                    }
                    throw StoreError.importFailed(path: path, line: line, field: .column(column + 1, name), reason: what)
                }
                batch.setReal(DecimalText.double(text), cell: cell)
            }
        }
    }
}
