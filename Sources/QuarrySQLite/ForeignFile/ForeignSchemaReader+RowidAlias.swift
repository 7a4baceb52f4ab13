import GRDB
import QuarryStore

/// SQLite's quirk: a column declared `INTEGER PRIMARY KEY DESC` (DESC in the column's own
/// constraint; in a table's `PRIMARY KEY(id DESC)` the column is an alias) is no alias of
/// the rowid but an ordinary column under a unique index, which takes NULL and text: a
/// new row that leaves it out gets NULL. Such a table's rows are known by their rowid, and
/// the column is a key each new row must be given, as any other primary key is.
extension ForeignSchemaReader {
    /// What `relation`'s rows are known by (`ForeignSchema.rowKey`), an INTEGER key that is
    /// no rowid alias (`keysNoAlias`) read as a key of another type.
    func sqliteRowKey(of relation: ForeignSchema.Relation, keysNoAlias: Set<String>) -> ForeignSchema.RowKey {
        let rowKey = ForeignSchema.rowKey(of: relation, engine: self)
        if case .integerKey = rowKey, keysNoAlias.contains(relation.name) { return .numbered(keys: relation.primaryKey) }
        return rowKey
    }

    /// The tables among `relations` whose one INTEGER key column is no rowid alias, asked
    /// of SQLite only where the table's SQL has the word DESC and a rowid: compiled without
    /// the key's index, a read of an alias is SQLite's `Rowid` instruction, of an ordinary
    /// column `Column`. A table SQLite will not explain keeps its key as an alias.
    func integerKeysNoAlias(_ relations: [ForeignSchema.Relation], schema: SQLiteSchemaText, _ db: Database) -> Set<String> {
        Set(
            relations.compactMap { relation in
                guard case .integerKey(let key) = ForeignSchema.rowKey(of: relation, engine: self),
                    let sql = schema.table(named: relation.name)
                else { return nil }
                let words = CaselessASCII(sql)
                guard words.contains("DESC"), !words.contains("WITHOUT"),
                    let steps = try? Row.fetchAll(
                        db, sql: "EXPLAIN SELECT \(quoteIdentifier(key)) FROM main.\(quoteIdentifier(relation.name)) NOT INDEXED")
                else { return nil }
                let opcodes = Set(steps.compactMap { $0["opcode"] as String? })
                return opcodes.contains("Column") && !opcodes.contains("Rowid") ? relation.name : nil
            })
    }

    /// A WITHOUT ROWID table's INTEGER key is no alias either: it holds text, a blob or a
    /// fraction as well, and such a row can be no object (`keyMayHoldOthers`), so every
    /// count and fetch leaves it out. Said at open with the number of such rows, and the
    /// sql() that reads them, where they were left out without a word. One scan of the
    /// key, only for such a table.
    func noteRowsKeyedByOthers(_ table: String, key: String) {
        let (t, k) = (quoteIdentifier(table), quoteIdentifier(key))
        guard
            let left = try? session.connection.read({ db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM main.\(t) WHERE typeof(\(k)) <> 'integer'")
            }), left > 0
        else { return }
        let rows = left == 1 ? "1 row whose \(key) holds no integer is" : "\(left) rows whose \(key) holds no integer are"
        session.openingNotes.append(
            "\(table): \(rows) left out of its objects (its key is INTEGER, WITHOUT ROWID); "
                + "sql([[SELECT * FROM \(writtenIdentifier(table)) WHERE typeof(\(writtenIdentifier(key))) <> 'integer']]) reads them")
    }
}
