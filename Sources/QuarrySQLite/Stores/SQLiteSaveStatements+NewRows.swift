import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryStore

/// New rows of Quarry's own tables, several to an INSERT: consecutive rows of one entity
/// writing the same columns, at most `rowsPerStatement` of them. One INSERT a row spent
/// most of SQLite's share of a save of 20,000 new objects starting the statement and
/// updating `sqlite_sequence` (AUTOINCREMENT), and a third of Quarry's running it through
/// GRDB (issue 62).
///
/// A row's key is its rowid. SQLite gives the rows of one INSERT theirs in the order of
/// its VALUES, each one more than the last (AUTOINCREMENT: every rowid is larger than any
/// the table had), so the rows' keys are the last rowid and the ones before it. Only a
/// table that holds to that takes several rows a statement: an AUTOINCREMENT table with
/// no trigger (which could insert rows of its own between them) and no conflict clause
/// (IGNORE would skip a row, REPLACE could take another's place).
///
/// Another program's table keyed by its rowid goes the same way when its new rows leave
/// the key to SQLite: without AUTOINCREMENT SQLite gives a new row the largest rowid plus
/// one, which is the same run of keys, until that would pass the largest a rowid can be
/// (then it picks keys at random), so the table's largest rowid is asked before each
/// statement, and rows it leaves no room for go one at a time. Writing these a row at a
/// time was most of what made a save of 20,000 new objects into such a file 1.5x the
/// same save into Quarry's own (issue 84). Everything else (a sub-entity's view, a
/// virtual table, a table without a rowid, Core Data's, a row given its key, a column
/// SQLite fills) is written a row at a time, as `insert(_:_:toOne:keys:)` writes it.
///
/// A refusal is said as the refused row alone would have it: SQLite undoes the whole
/// statement a constraint refuses (ABORT), and its rows are written again one at a time,
/// so the first row refused throws its own error. The save's transaction then rolls
/// back: nothing is written. An error that ends the transaction itself (SQLite out of
/// memory or disk) is the save's as it stands.
extension SQLiteSaveStatements {
    package var insertBatch: Int { Self.newRowsAtOnce }

    /// Rows of a save handed over at once (`SaveRowsWriter`).
    static let newRowsAtOnce = 1_024
    /// Rows of one INSERT: 32 take most of what fewer statements save, as for an import
    /// (`ImportRequest+SQLite`), within SQLite's limit on parameters.
    static let rowsPerStatement = 32
    /// Text and blobs of one INSERT at most: SQLite copies every bound value, so a
    /// statement of 32 large rows held 32 copies at once (past `--memory` where the rows
    /// one at a time were not); rows past it are written one at a time.
    static let bytesPerStatement = 1 << 20

    package mutating func insert(_ rows: [NewRow], keys: SaveChangesRequest.Keys) throws -> [Int64] {
        var given: [Int64] = []
        given.reserveCapacity(rows.count)
        // Each table's largest key once asked, then the last of each statement: nothing
        // else writes it between the statements of these rows.
        var largest: [ObjectIdentifier: Int64?] = [:]
        var start = 0
        while start < rows.count {
            let first = rows[start]
            let plan = try planTogether(first, keys: keys)
            var end = start + 1
            if let plan, let most = plan.rowsTogether {
                let limit = min(rows.count, start + most)
                while end < limit, try planTogether(rows[end], keys: keys) === plan { end += 1 }
            }
            if let plan, end - start > 1 {
                given += try insert(rows[start..<end], plan, keys: keys, largest: &largest[ObjectIdentifier(plan)])
            } else {
                given.append(try insert(first.object, first.entity, toOne: first.toOne, keys: keys))
                // A row alone may take any key (one given it): the largest is asked again.
                largest = [:]
            }
            start = end
        }
        return given
    }

    /// The plan of `row`'s INSERT when its rows may go several to a statement, else nil.
    private mutating func planTogether(_ row: NewRow, keys: SaveChangesRequest.Keys) throws -> InsertPlan? {
        let box = storageBox(of: row.entity)
        let storage = box.storage
        // Asked first, from the storage alone and once an entity: a row of another
        // program's table or of a Core Data store is planned once, by the row-at-a-time
        // insert.
        if box.mayGoTogether == nil { box.mayGoTogether = Self.mayGoTogether(row.entity, storage) }
        guard box.mayGoTogether == true else { return nil }
        // A row of another program's table given its key (the key column set, or kept by
        // a to-one link) takes that key, not the next one.
        if storage.layout == .foreignTable,
            !insertedValue(row, storage.keyColumn, keys: keys, keepsLinks: !row.entity.toOneRelationships.isEmpty).isNull
                || row.toOne.contains(where: { $0.name == storage.keyColumn && !$0.key.isNull })
        {
            return nil
        }
        let filled = EngineFilledColumns.of(row.object, row.entity, storage, keys: keys, session: session)
        // A column SQLite fills comes back with the row (RETURNING): a row at a time.
        guard filled.isEmpty else { return nil }
        // Another program's rowid key, NULL in every row here, is not written: looking it
        // up in each object and binding its NULL was a tenth of such a row's save.
        let plan = try insertPlan(row.entity, filled: filled, toOne: row.toOne, storage: storage, leavesKey: storage.layout == .foreignTable)
        if plan.rowsTogether == nil { plan.rowsTogether = try rowsTogether(plan, width: plan.written.count + row.toOne.count) }
        return (plan.rowsTogether ?? 1) > 1 ? plan : nil
    }

    /// Whether `entity`'s rows may go several to a statement as far as its storage says: a
    /// root entity of Quarry's own table or of another program's table keyed by its rowid,
    /// with no column SQLite computes. (The table's name, made as a string, is compared
    /// once a plan.)
    private static func mayGoTogether(_ entity: EntityDescription, _ storage: EntityStorage) -> Bool {
        entity.parent == nil && (storage.layout == .quarry || storage.layout == .foreignTable) && storage.schema == nil
            && storage.numberedRows == nil && storage.generated.isEmpty && !storage.keyMayHoldOthers
    }

    /// How many rows of `plan` one statement may write (1: each alone), asked once a save.
    private func rowsTogether(_ plan: InsertPlan, width: Int) throws -> Int {
        let storage = plan.storage
        guard width > 0, storage.writtenTable == quoteIdentifier(storage.relation) else { return 1 }
        // The file's own table, as Quarry made it: no temporary table of the name hides it.
        let sql = try String.fetchOne(
            db, sql: "SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE", arguments: [storage.relation])
        // Words of the SQL, not its text: AUTOINCREMENT in a comment or a default is none.
        guard let sql else { return 1 }
        let words = SQLTokens(sql).all
        guard !words.contains(where: { $0.isWord("conflict") }) else { return 1 }
        // A virtual table's module gives its rowids as it likes.
        guard words.count > 1, !words[1].isWord("virtual") else { return 1 }
        // Quarry's own tables all say AUTOINCREMENT; another program's table may not.
        plan.asksLargestKey = !words.contains(where: { $0.isWord("autoincrement") })
        guard !plan.asksLargestKey || storage.layout == .foreignTable else { return 1 }
        let triggered = try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM main.sqlite_master WHERE type = 'trigger' AND tbl_name = ?1 COLLATE NOCASE)
                    OR EXISTS (SELECT 1 FROM temp.sqlite_master WHERE (type = 'trigger' AND tbl_name = ?1 COLLATE NOCASE) OR name = ?1 COLLATE NOCASE)
                """, arguments: [storage.relation])
        guard triggered == false else { return 1 }
        let variables = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        return max(1, min(Self.rowsPerStatement, variables / width))
    }

    /// Inserts `rows`, all of `plan`, in one statement; returns their keys in order.
    /// `largest`: the table's largest key where known (nil: not asked yet); the rows'
    /// last after them, or nil again where they went one at a time.
    private mutating func insert(
        _ rows: ArraySlice<NewRow>, _ plan: InsertPlan, keys: SaveChangesRequest.Keys, largest known: inout Int64??
    ) throws -> [Int64] {
        let count = rows.count
        var values = SQLiteArguments()
        let forms = plan.writtenForms ?? plan.written.map { WrittenForm($0, of: rows[rows.startIndex].entity, plan.storage) }
        plan.writtenForms = forms
        for row in rows {
            let keepsLinks = !row.entity.toOneRelationships.isEmpty
            for (name, form) in zip(plan.written, forms) {
                let value = insertedValue(row, name, keys: keys, keepsLinks: keepsLinks)
                guard form.keepsAsGiven(value) else {
                    try append(row.object, row.entity, plan.storage, name, value, to: &values)
                    continue
                }
                values.append(value)
            }
            values.append(contentsOf: row.toOne.map(\.key))
        }
        // Rows written one at a time may take keys anywhere: the largest is asked again.
        func alone() throws -> [Int64] {
            known = nil
            return try self.alone(rows, keys: keys)
        }
        guard values.byteCount <= Self.bytesPerStatement else { return try alone() }
        // Without AUTOINCREMENT the next rowid is the largest plus one, the run of keys
        // worked out below, only while that leaves room for every row.
        if plan.asksLargestKey {
            let largest =
                try known
                ?? Int64.fetchOne(db.cachedStatement(sql: "SELECT max(\(plan.storage.key)) FROM \(plan.storage.writtenTable)"))
            guard (largest ?? 0) <= Int64.max - Int64(count) else { return try alone() }
        }
        var together =
            try plan.statementsTogether[count] ?? (
                db.makeStatement(sql: plan.head + repeatElement(plan.marks, count: count).joined(separator: ", ")), false
            )
        do {
            defer { plan.statementsTogether[count] = together }
            try together.statement.executeBound(values, told: &together.told)
        } catch let error as DatabaseError where error.resultCode != .SQLITE_INTERRUPT && db.isInsideTransaction {
            // Undone whole (ABORT): each row alone says which was refused. (An error that
            // ended the transaction, out of memory or disk, is the save's as it is.)
            return try alone()
        }
        guard db.changesCount == count else {
            throw StoreError.database(message: "save: \(count) new rows were sent to \(plan.storage.relation), but SQLite wrote \(db.changesCount)")
        }
        let last = db.lastInsertedRowID
        known = .some(last)
        return (0..<count).map { last - Int64(count - 1 - $0) }
    }

    /// `row`'s value of column `name` as the save writes it (`StoreSession.insertedValue`).
    /// A link is kept in a column only by a to-one relationship of the row's entity (its
    /// current one), so without one the value is the object's own, read without looking
    /// the object's entity up again: that lookup, for the NULL key of each new row of
    /// another program's table, was the largest part of what such a row cost beyond one
    /// of Quarry's own (issue 84).
    private func insertedValue(_ row: NewRow, _ name: String, keys: SaveChangesRequest.Keys, keepsLinks: Bool) -> Value {
        keepsLinks ? session.insertedValue(row.object, name, keys: keys) : row.object.currentValue(name)
    }

    /// `rows` written a row at a time, as `insert(_:_:toOne:keys:)` writes each.
    private mutating func alone(_ rows: ArraySlice<NewRow>, keys: SaveChangesRequest.Keys) throws -> [Int64] {
        try rows.map { try insert($0.object, $0.entity, toOne: $0.toOne, keys: keys) }
    }
}
