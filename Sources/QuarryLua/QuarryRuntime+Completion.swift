import CLua
import CQuarryShim
import QuarryStore

extension QuarryRuntime {
    static let keywords = ["and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
                           "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"]

    /// What Tab may complete `word` to, given the text before it: keys after `o.` and
    /// `Item.`, methods after `:`, attribute names inside a predicate string, and globals,
    /// keywords and entity names otherwise. Reads Lua with raw access only.
    public func completions(before: String, word: String) -> [String] {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        var candidates: [String]
        if let entity = predicateEntity(before) {
            candidates = (try? context.entity(named: entity).keyNames) ?? []
        } else if let separator = before.last, separator == "." || separator == ":", let chain = trailingChain(String(before.dropLast())) {
            candidates = pushChain(chain) ? keys(at: lua_gettop(state), methods: separator == ":") : []
        } else {
            candidates = Self.keywords + globalNames() + context.entities.map(\.name)
        }
        return Array(Set(candidates.filter { $0.hasPrefix(word) })).sorted()
    }

    /// Inside `fetch("Item", "ti` (or count, Item:fetch...): the entity whose keys apply.
    private func predicateEntity(_ before: String) -> String? {
        let quotes = before.filter { $0 == "\"" || $0 == "'" }.count
        guard quotes % 2 == 1 else { return nil }
        for entity in context.entities {
            for pattern in ["(\"\(entity.name)\", \"", "('\(entity.name)', '", "(\"\(entity.name)\",\"", "\(entity.name):fetch(\"", "\(entity.name):count(\"",
                            "\(entity.name):first(\"", "{ \"\(entity.name)\", predicate = \""] where before.contains(pattern) {
                return entity.name
            }
        }
        return nil
    }

    /// `a.b.c` at the end of `text`, as names.
    private func trailingChain(_ text: String) -> [String]? {
        var chars = Array(text)
        var end = chars.count
        var start = end
        while start > 0, chars[start - 1].isLetter || chars[start - 1].isNumber || chars[start - 1] == "_" || chars[start - 1] == "." { start -= 1 }
        chars = Array(chars[start..<end])
        end = chars.count
        let names = String(chars).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !names.isEmpty, names.allSatisfy({ !$0.isEmpty }), let first = names.first?.first, first.isLetter || first == "_" else { return nil }
        return names
    }

    /// Pushes the value the chain names, following plain tables only (raw), objects by key.
    private func pushChain(_ names: [String]) -> Bool {
        quarry_pushglobaltable(state)
        for name in names {
            if lua_type(state, -1) == LUA_TTABLE {
                LuaTable.field(state, -1, name)
                quarry_remove(state, -2)
            } else if let object = swiftObject(state, -1, kind: .object, as: ManagedObject.self),
                      let relationship = context.entitiesRelationship(name, of: object), !relationship.isToMany,
                      let target = try? context.relatedObject(name, of: object) {
                quarry_pop(state, 1)
                pushManagedObject(state, target)
            } else {
                return false
            }
        }
        return lua_type(state, -1) != LUA_TNIL
    }

    private func keys(at index: Int32, methods: Bool) -> [String] {
        if let object = swiftObject(state, index, kind: .object, as: ManagedObject.self) {
            return methods ? methodNames(.object) : context.currentEntityDescription(of: object).keyNames
        }
        if let entity = swiftObject(state, index, kind: .entity, as: EntityHandle.self) {
            return methods ? methodNames(.entity) : ((try? context.entity(named: entity.name).keyNames) ?? []) + ["name", "attributes"]
        }
        for kind in [UserdataKind.results, .set, .predicate, .observer, .namespace, .binding, .state] where userdataKind(state, index) == kind.rawValue {
            return methodNames(kind) + (methods ? [] : (kind == .results ? ["predicate", "args", "sort", "limit", "offset", "section"] : ["value"]))
        }
        if lua_type(state, index) == LUA_TSTRING, methods {
            return ["byte", "find", "format", "gmatch", "gsub", "len", "lower", "match", "rep", "reverse", "sub", "upper"]
        }
        guard lua_type(state, index) == LUA_TTABLE else { return [] }
        return LuaTable.stringKeys(state, index).keys
    }

    private func methodNames(_ kind: UserdataKind) -> [String] {
        pushRegistryField(state, "quarry.methods." + kind.rawValue)
        defer { quarry_pop(state, 1) }
        guard lua_type(state, -1) == LUA_TTABLE else { return [] }
        return LuaTable.stringKeys(state, -1).keys
    }

    private func globalNames() -> [String] {
        quarry_pushglobaltable(state)
        defer { quarry_pop(state, 1) }
        return LuaTable.stringKeys(state, -1).keys.filter { !$0.hasPrefix("__") }
    }
}
