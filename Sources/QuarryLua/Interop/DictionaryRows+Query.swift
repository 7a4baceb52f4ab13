import CLua
import CQuarryShim
import QuarryFetch
import QuarryModel
import QuarryStore

/// What made a list of dictionary rows, so `watch` can run it again when the store
/// changes: a dictionary request (`fetch{ ..., result = "dictionaries" }`) or a
/// read-only statement with its arguments (`sql()`). The rows stay a plain Lua table;
/// their query is kept as their columns are, in a weak-keyed registry table.
final class RowsQuery {
    enum Source {
        case dictionaries(DictionaryRequest)
        case sql(String, [Value])
    }
    let source: Source
    /// The store it runs on, set when it first runs (`QuarryRuntime.rows(of:)`), so
    /// `watch` of another store's rows runs it there.
    var context: ObjectContext? {
        get { link?.context }
        set { link = newValue?.link }
    }
    /// The context's link (`ContextLink`): the query does not keep the context alive.
    private var link: ContextLink?
    init(_ source: Source) { self.source = source }
}

private let queriesKey = "quarry.rowqueries"

/// Pushes the weak-keyed table of queries, making it the first time.
private func pushQueryTable(_ state: OpaquePointer) {
    pushWeakKeyedRegistryTable(state, queriesKey)
}

/// Remembers `query` for the rows list at `index`; the rows keep it alive, and it goes
/// with them (a weak key's value is collected with the key).
func rememberQuery(_ state: OpaquePointer, _ index: Int32, _ query: RowsQuery) {
    let rows = lua_absindex(state, index)
    pushQueryTable(state)
    lua_pushvalue(state, rows)
    pushSwiftObject(state, query, kind: .query)
    lua_rawset(state, -3)
    quarry_pop(state, 1)
}

/// The query remembered for the rows list at `index`, if Quarry made it from one.
func rememberedQuery(_ state: OpaquePointer, _ index: Int32) -> RowsQuery? {
    guard lua_type(state, index) == LUA_TTABLE else { return nil }
    let rows = lua_absindex(state, index)
    pushQueryTable(state)
    lua_pushvalue(state, rows)
    lua_rawget(state, -2)
    let query = swiftObject(state, -1, kind: .query, as: RowsQuery.self)
    quarry_pop(state, 2)
    return query
}
