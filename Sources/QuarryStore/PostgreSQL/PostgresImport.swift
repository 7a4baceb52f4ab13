/// An import into a table of a PostgreSQL store: one `COPY ... FROM STDIN` in a
/// `READ WRITE` transaction, fed by the import's parser thread (`ImportPipeline`) a batch
/// at a time (`PostgresCopyText`), so memory stays flat as it does on SQLite. A new
/// entity's table is made in the same transaction (`PostgresStore+Definitions`). A row
/// the server refuses (a type, a constraint) ends the import with nothing kept, the table
/// included, at the file's line that row came from.
extension ImportRequest {
    func copy(_ table: ImportTable, check: [ColumnType]?, attributes: [AttributeDescription], defaults: [AttributeDescription],
              entity: EntityDescription, creating: Bool, context: ObjectContext, server: PostgresConnection,
              progress: ((Int, Int) -> Void)?) throws -> Int {
        guard let store = context.store as? PostgresStore else { throw StoreConnection.notOnPostgres("import") }
        let storage = creating ? PostgresStore.storage(of: entity, schema: store.schema) : context.mapping.storage(of: entity.name)
        let columns = attributes + defaults
        guard !columns.isEmpty else {
            throw StoreError.importFailed(path: path, line: nil, reason: "the file names no column of \(entityName), and a PostgreSQL table takes rows through its columns")
        }
        let sql = "COPY \(storage.table) (\(columns.map { quoteIdentifier($0.name) }.joined(separator: ", "))) FROM STDIN"
        let pipeline = try startPipeline(table, check: check, attributes: attributes, fixed: defaults.compactMap(\.defaultValue),
                                         rowsPerBatch: max(1, min(1024, 65_536 / columns.count)))
        defer { pipeline.finish() }
        let text = PostgresCopyText(types: columns.map(\.type))
        var lines = LineRuns()
        var rows = 0
        do {
            let copied = try server.inWriteTransaction {
                if creating { try store.writeTables(entity, changes: [], server) }
                return try server.copyIn(sql) { out in
                    guard let batch = try pipeline.next() else { return false }
                    text.append(batch, to: &out)
                    for (i, line) in batch.lines.enumerated() { lines.add(row: rows + i, line: line) }
                    let before = rows
                    rows += batch.rows
                    table.progress.bytesRead = batch.bytesRead
                    if rows / 10_000 != before / 10_000 { progress?(rows, table.count ?? table.progress.estimate(rows)) }
                    pipeline.recycle(batch)
                    return true
                }
            }
            if creating { try store.adopt([entity], context: context) }
            return copied
        } catch let failure as PostgresConnection.CopyFailure {
            // COPY counts the rows it was sent from 1.
            throw StoreError.importFailed(path: path, line: failure.line.flatMap { lines.line(ofRow: $0 - 1) }, reason: failure.message)
        }
    }
}

/// Which line of the file each row sent came from, kept as the runs in which both advance
/// by one: one run for a file of one-line records, so it does not grow with the file.
struct LineRuns {
    private var runs: [(row: Int, line: Int)] = []

    mutating func add(row: Int, line: Int) {
        if let last = runs.last, line - last.line == row - last.row { return }
        runs.append((row, line))
    }

    func line(ofRow row: Int) -> Int? {
        guard let run = runs.last(where: { $0.row <= row }) else { return nil }
        return run.line + row - run.row
    }
}
