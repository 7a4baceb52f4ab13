import CLua
import CQuarryShim
import QuarryFormat
import QuarryModel

/// `entities()` at the prompt: a list of entity handles, each of which prints as its
/// whole definition, showed as one blob of every entity's attributes. As `.tables`
/// and psql's `\dt` list them, it prints as a table, one entity a row: its name, how
/// many attributes it has, and its relationships. The list itself stays a list of handles.
extension QuarryRuntime {
    /// The value at `index` as such a table, when it is a non-empty list of entity handles
    /// and nothing else; nil otherwise.
    func entityListTable(_ state: OpaquePointer, _ index: Int32) -> String? {
        guard lua_type(state, index) == LUA_TTABLE else { return nil }
        let table = lua_absindex(state, index)
        let count = Int(lua_rawlen(state, table))
        guard count > 0 else { return nil }
        lua_pushnil(state)
        var keys = 0
        while lua_next(state, table) != 0 {
            keys += 1
            quarry_pop(state, 1)
        }
        guard keys == count else { return nil }
        var rows: [[Value]] = []
        for i in 1...count {
            lua_rawgeti(state, table, lua_Integer(i))
            defer { quarry_pop(state, 1) }
            guard let handle = swiftObject(state, -1, kind: .entity, as: EntityHandle.self) else { return nil }
            let context = handle.store?.opened ?? self.context
            guard let entity = try? context.entity(named: handle.name) else { return nil }
            let relationships = entity.relationships.map { "\($0.name): \($0.isToMany ? "many" : "one") \($0.destination)" }
            rows.append([.text(entity.name), .integer(Int64(entity.attributes.count)), .text(relationships.joined(separator: ", "))])
        }
        var format = tableFormat
        format.maxRows = 0
        var text = TextTable.rows(headers: ["entity", "attributes", "relationships"], values: rows, format: format)
        text.footer = format.mode.isData ? nil : "(\(grouped(rows.count)) \(rows.count == 1 ? "entity" : "entities"))"
        return text.render(format)
    }
}
