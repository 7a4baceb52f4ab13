import CLua
import CQuarryShim

/// A request's call written the way another tool would have it, said as the type error
/// it is with the call that works here.
extension QuarryRuntime {
    /// `fetch(plays)`: a name written without quotes reads a global, nil, where the entity's
    /// name goes. Said as the type error it is, with the call that works, naming one of the
    /// store's entities (the variable's name is not known from its value).
    func unquotedEntityName(_ call: LuaCall, _ index: Int32) -> LuaError {
        var error = call.typeError(index, expected: "string")
        // `fetch(citty)`: the global the call's line passes there, when it is unset and
        // near an entity's name, as `Custmer:first()` gets one (`entitySuggestion`).
        if let global = nilGlobalArgument(call, index), let entity = entitySuggestion(forGlobal: global) {
            error.detail = "string expected, got nil: the global '\(global)' is not set"
            error.suggestion = entity
            return error
        }
        let example = openedContext?.entities.map(\.name).min() ?? "Item"
        let quoted = LuaLiteral.string(example)
        error.remedy = "an entity's name is a string, e.g. \(call.functionName)(\(quoted))"
        return error
    }

    /// `fetch("Item", { sort = ... })` or `count("Item", { n = 1 })`: options (or what was
    /// meant as a filter) in a table after the name. The options go in one table with the
    /// entity first, as `fetch{}` takes them; said with the call that works.
    func optionsAfterEntity(_ call: LuaCall, _ index: Int32, entity: String) -> LuaError {
        var error = call.typeError(index, expected: "string")
        error.remedy = "options go in one table, the entity first: \(call.functionName){ \(LuaLiteral.string(entity)), predicate = \"...\" }"
        return error
    }

    /// `count{ "Item", quantity = 1 }` (a filter written as Django or an ORM writes it): when
    /// the unknown option is one of the entity's attributes, the predicate that says it.
    func filterWrittenAsOption(_ s: OpaquePointer, _ index: Int32, key: String, entity: String?) -> String? {
        var name = entity
        if name == nil {
            if LuaTable.element(s, index, 1) == LUA_TSTRING { name = luaString(s, -1) }
            quarry_pop(s, 1)
        }
        guard let name, let described = openedContext?.managedObjectModel[resolvedEntityName(name)],
            described.attribute(named: key) != nil
        else { return nil }
        return "a filter is a predicate: predicate = \"\(key) == %@\", args = { ... }"
    }
}
