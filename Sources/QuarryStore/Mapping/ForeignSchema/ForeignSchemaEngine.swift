import QuarryEngine
import QuarryModel

/// What an engine answers when another program's tables and views become entities
/// (`ForeignSchema+Entities`); everything else is decided once, from the schema's
/// description. SQLite answers in `ForeignSchemaReader`, PostgreSQL in
/// `PostgresForeignSchema`. What a table's rows are known by is decided once
/// (`ForeignSchema.rowKey`: an integer key, a number the engine gives, none); the engine
/// says which types are integer keys, and how rows of each kind are read, as a
/// `ForeignSchema.RowIdentity` (its rowid or its alias; an integer key; a keyed table's
/// numbers through a session view).
package protocol ForeignSchemaEngine {
    /// Whether a primary key of this one column is the rows' own number (SQLite: declared
    /// `INTEGER`, the rowid's alias; PostgreSQL: `int2`, `int4` or `int8`).
    func isIntegerKey(_ column: ForeignSchema.Column) -> Bool

    /// A column's declared type as Quarry's (SQLite's affinity rules, PostgreSQL's type names).
    func attributeType(_ column: ForeignSchema.Column) -> AttributeType

    /// The types of a view's `columns` that declare none (computed ones), in their order.
    func computedColumnTypes(_ view: String, _ columns: [String]) -> [AttributeType]

    /// What a column's type asks of the storage that reads it (PostgreSQL's text casts,
    /// day columns, `money` and intervals; nothing of SQLite's).
    func noteType(of column: ForeignSchema.Column, in storage: inout EntityStorage)

    /// What a column's declared default gives a new object: a constant, a clock read when
    /// it is made, or nil (no default the object can know before its row is written).
    func columnDefault(of column: ForeignSchema.Column, as type: AttributeType) -> ForeignColumnDefault.Kind?

    /// The SQL Quarry evaluates for `declared`, a SET DEFAULT key column's default, when a
    /// parent is deleted (SQLite: a literal, as the column keeps it, or a clock; PostgreSQL:
    /// the server's own expression, which its DELETE evaluates), nil when it must not.
    func setDefault(_ declared: String, of column: ForeignSchema.Column) -> String?

    /// The date attributes among `attributes` of the table `storage` reads whose column
    /// keeps numbers other than Unix seconds (milliseconds, Julian days).
    func numericDates(of storage: EntityStorage, among attributes: [AttributeDescription]) -> [String: EntityStorage.NumericDateScale]

    /// How a view's rows are read (`ForeignSchema.viewRows` with the engine's SQL): its
    /// temporary view, named so as not to shadow a relation of `taken`, that view's key
    /// column, and whether it is the rows' place; nil when the view cannot be one.
    func viewRows(_ view: String, names: [String], types: [AttributeType], taken: Set<String>)
        -> (relation: String, key: String, byPlace: Bool, making: DeferredViews.Making)?
}

/// An engine whose columns are typed (a view's too), whose dates are typed, and whose
/// defaults are filled when a row is inserted and evaluated where they are declared.
extension ForeignSchemaEngine {
    /// Every column of a view has its type; one read with none is text, as a type the
    /// engine does not know is read.
    package func computedColumnTypes(_ view: String, _ columns: [String]) -> [AttributeType] { columns.map { _ in .string } }
    /// The engine's own expression, as its DELETE would evaluate it.
    package func setDefault(_ declared: String, of column: ForeignSchema.Column) -> String? { declared }
    package func columnDefault(of column: ForeignSchema.Column, as type: AttributeType) -> ForeignColumnDefault.Kind? { nil }
    package func numericDates(of storage: EntityStorage, among attributes: [AttributeDescription]) -> [String: EntityStorage.NumericDateScale] {
        [:]
    }
}
