/// What a cell of a row holds, as every engine reports it: the five storage classes of
/// SQLite, which Quarry's reads are written against. An engine with richer types says
/// which of these each value is read as (PostgreSQL: booleans as integers, timestamps as
/// reals, `numeric` as text, which `RowCursor.value` gives as a decimal).
@usableFromInline
package enum CellType {
    case null
    case integer
    case real
    case text
    case blob
}
