import Foundation
import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Where the pragmas read here put what they say (SQLite's documented order): a row is
/// read by position, as a name is looked for among a row's columns by lower-casing each
/// (17,000 `lowercased` calls opening a file of 60 tables).
enum TableInfo {
    // `table_info`, and `table_xinfo`, which adds `hidden`.
    static let name = 1, type = 2, notNull = 3, defaultValue = 4, primaryKey = 5, hidden = 6
}

enum ForeignKeyList { static let id = 0, seq = 1, table = 2, from = 3, to = 4, onDelete = 6 }

enum IndexList { static let name = 1, unique = 2 }

enum IndexInfo { static let name = 2 }

/// SQLite's answers to what a foreign file's tables and views ask of their engine
/// (`ForeignSchema+Entities` decides the rest).
extension ForeignSchemaReader: ForeignSchemaEngine {
    package func attributeType(_ column: ForeignSchema.Column) -> AttributeType { Self.attributeType(declared: column.declaredType) }

    /// Declared `INTEGER` exactly, its letters compared as SQLite compares them (ASCII
    /// only: `ınteger`, with a dotless ı, makes no alias): the rowid's alias (or, without a
    /// rowid, a column that takes text as well, `keyMayHoldOthers`).
    package func isIntegerKey(_ column: ForeignSchema.Column) -> Bool { CaselessASCII(column.declaredType).equals("INTEGER") }

    /// SQLite's values compare and sort as stored: a column of INTEGER or REAL affinity
    /// may hold text, which predicates compare and match as SQLite does
    /// (`EntityStorage.takesText`). Not one of NUMERIC affinity (`DECIMAL`): it keeps 42
    /// as an integer, which its double attribute reads as 42.0, so a string operator would
    /// read "42.0" in memory and "42" in SQL. A view's computed column declares no type
    /// and has no affinity: it is left out too.
    package func noteType(of column: ForeignSchema.Column, in storage: inout EntityStorage) {
        switch attributeType(column) {
        case .int64: storage.takesText.insert(column.name)
        case .double where ["REAL", "FLOA", "DOUB"].contains(where: Self.words(of: column.declaredType)): storage.takesText.insert(column.name)
        // A table's column only: a view's column with no declared type may still have an
        // affinity SQLite works out from its expression (`CAST(x AS TEXT)`, a COLLATE).
        case .string where storage.layout == .foreignTable && column.declaredType.trimmingSpaces.isEmpty: storage.untyped.insert(column.name)
        // Read as stored, as a column of no type is, and a text argument compared as the
        // number it spells, as SQLite's NUMERIC affinity compares it.
        case .string where storage.layout == .foreignTable && Self.hasNumericAffinityText(declared: column.declaredType):
            storage.untyped.insert(column.name)
            storage.takesText.insert(column.name)
        default: break
        }
        if storage.layout == .foreignTable, let collation = column.collation?.uppercased(), ["NOCASE", "RTRIM"].contains(collation) {
            storage.columnCollations[column.name] = collation
        }
    }

    /// A literal or a clock (`ForeignColumnDefault`); an expression is never evaluated.
    package func columnDefault(of column: ForeignSchema.Column, as type: AttributeType) -> ForeignColumnDefault.Kind? {
        column.defaultText.flatMap { ForeignColumnDefault.kind(of: SQLiteDefaultText.literal($0), as: type) }
    }

    /// A literal or a clock, as a new object's default: an expression in parentheses may
    /// call any function, and a file's text never makes Quarry call one. A quoted number
    /// in a column of numeric affinity is the number SQLite stores (`DEFAULT '1'` keeps 1,
    /// which names the parent 1; the text '1' named none in memory).
    package func setDefault(_ declared: String, of column: ForeignSchema.Column) -> String? {
        let text = SQLiteDefaultText.literal(declared)
        if ForeignColumnDefault.clocks.contains(text.uppercased()) { return text }
        guard let literal = ForeignColumnDefault.literal(text) else { return nil }
        guard case .text(let quoted) = literal else { return text }
        switch attributeType(column) {
        case .int16, .int32, .int64: return Int64(quoted).map(String.init) ?? text
        case .double, .decimal: return Double(quoted).map { "\($0)" } ?? text
        default: return text
        }
    }

    package func numericDates(of storage: EntityStorage, among attributes: [AttributeDescription]) -> [String: EntityStorage.NumericDateScale] {
        ForeignFileStore.numericDates(of: storage.relation, key: storage.keyColumn, attributes: attributes, in: session)
    }

    /// A TEMP view of the file's view (`main.`), named apart from the file's own
    /// `quarry_rows x` (`taken`, folded as SQLite compares names); keyed by a table's
    /// rowid where the view's definition shows one (`SQLiteViewKeys`).
    package func viewRows(_ view: String, names: [String], types: [AttributeType], taken: Set<String>)
        -> (relation: String, key: String, byPlace: Bool, making: DeferredViews.Making)?
    {
        let source = "main." + quoteIdentifier(view)
        let named = { ForeignSchema.unshadowed($0) { taken.contains(DeferredViews.folded($0)) } }
        return ForeignSchema.viewRows(
            view, source: source, names: names, types: types, temporary: "TEMP VIEW IF NOT EXISTS", named: named,
            isTableKey: { index in
                (try? session.connection.read { db in
                    SQLiteViewKeys.showsTableKey(view, column: index, named: names[index], db, schema: try schemaText(db))
                }) == true
            })
    }
}
