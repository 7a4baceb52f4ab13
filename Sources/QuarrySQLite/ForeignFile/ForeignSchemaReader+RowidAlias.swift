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
}
