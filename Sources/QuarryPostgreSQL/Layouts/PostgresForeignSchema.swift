import QuarryEngine
import QuarryModel
import QuarryStore

/// PostgreSQL's answers to what a schema's tables and views ask of their engine
/// (`ForeignSchema+Entities` decides the rest): columns typed by the server's type names
/// (`PostgresStore.attributeType`), the casts and day columns those types ask for
/// (`PostgresStore.noteType`), and a view read through a session view in `pg_temp`.
package struct PostgresForeignSchema: ForeignSchemaEngine {
    /// The schema whose views are read (a table's entity asks nothing of it).
    package let schema: String
    /// The views keyed by a table's key their definition shows (`PostgresStore.keyedViews`).
    let keyedViews: Set<String>

    package init(schema: String, keyedViews: Set<String> = []) {
        self.schema = schema
        self.keyedViews = keyedViews
    }

    package func attributeType(_ column: ForeignSchema.Column) -> AttributeType { PostgresStore.attributeType(column.declaredType) }

    /// Any of the server's integer types: its rows' numbers as they are.
    package func isIntegerKey(_ column: ForeignSchema.Column) -> Bool { ["int2", "int4", "int8"].contains(column.declaredType) }

    package func noteType(of column: ForeignSchema.Column, in storage: inout EntityStorage) { PostgresStore.noteType(of: column, in: &storage) }

    // No `columnDefault`: the server fills a default when the row is inserted (a serial,
    // `now()`), and the saved object reads the row back, so a new object starts without
    // it. No `numericDates`: the server's dates are typed, none is kept as a number. No
    // `computedColumnTypes`: every column of its views has its type. No `setDefault`: the
    // server's own expression, as its DELETE would evaluate it.

    /// In pg_temp, which is searched before the schema for the unqualified name; keyed by
    /// its table's key when the view shows one (`keyedViews`). A name past 63 bytes is cut
    /// with its hash (`identifier`): cut bare, two long views' would be one, the second
    /// reading the first's rows. Nor may it shadow the schema's own relation of that name
    /// (`taken`; PostgreSQL's names are exact), which SQL would then miss for it. Dropped
    /// first: a view made again after a read that stopped partway (`restoreTaken`).
    package func viewRows(_ view: String, names: [String], types: [AttributeType], taken: Set<String>)
        -> (relation: String, key: String, byPlace: Bool, making: DeferredViews.Making)?
    {
        let source = quoteIdentifier(schema) + "." + quoteIdentifier(view)
        let named = { (name: String) in PostgresStore.identifier(ForeignSchema.unshadowed(name) { taken.contains($0) }) }
        return ForeignSchema.viewRows(
            view, source: source, names: names, types: types, named: named, before: { ["DROP VIEW IF EXISTS pg_temp.\(quoteIdentifier($0))"] },
            isTableKey: { _ in keyedViews.contains(view) })
    }
}
