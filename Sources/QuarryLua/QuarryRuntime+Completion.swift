import CLua
import CQuarryShim
import QuarryFetch
import QuarryModel
import QuarryStore

extension QuarryRuntime {
    public static let keywords = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while"
    ]

    /// What Tab may complete `word` to, given the text before it: entity names where a call
    /// takes one (`fetch(`, `count(`, `relate(` and its third argument, `barchart(`...); inside a predicate or sort string, the keys of the
    /// entity the call names, through relationships (`"airline.` offers Airline's keys);
    /// in `sql("`, the tables entities are read from; keys after `o.` and `Item.` (with a
    /// handle's own fields), methods after `:`; globals, keywords and entity names
    /// otherwise. Reads Lua with raw access only.
    public func completions(before: String, word: String) -> [String] {
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        var candidates: [String]
        if let string = OpenString(before) {
            if string.isSQL {
                candidates = context.entities.map { context.mapped($0).nameInSQL }
            } else if string.takesEntityName {
                candidates = context.entities.map(\.name)
            } else if let entity = lastEntityNamed(in: string.code) {
                // In the form the string reads as the key: `#size` in a predicate.
                let path = string.keyPathBeforeWord
                let keys = Array(Set(keys(of: entity, through: path).filter { $0.hasPrefix(word) })).sorted()
                // One to-one relationship goes on to its keys, as a shell ends a folder's name
                // with its `/` (trial 31 typed `licenseca` after `li` became `license`).
                if keys.count == 1, let owner = self.entity(entity, through: path),
                    owner.relationship(named: keys[0]).map({ !$0.isToMany }) == true
                {
                    return [string.written(keys[0]) + "."]
                }
                return Array(Set(keys.map(string.written))).sorted()
            } else {
                candidates = []
            }
        } else if let named = Self.sqlLineWords(before) {
            // A line typed as SQL at the prompt (`select * from film where rat`): the tables
            // entities are read from, and the columns of those the line names.
            candidates = context.entities.map { context.mapped($0).nameInSQL }
            for entity in context.entities where named.contains(context.mapped(entity).nameInSQL.lowercased()) {
                if context.mapped(entity).storeNumber == nil { candidates += entity.attributes.map(\.name) }
            }
        } else if let separator = before.last, separator == "." || separator == ":", let chain = trailingChain(String(before.dropLast())) {
            candidates = pushChain(chain) ? keys(at: lua_gettop(state), methods: separator == ":") : []
        } else {
            candidates = Self.keywords + globalNames() + context.entities.map(\.name)
        }
        return Array(Set(candidates.filter { $0.hasPrefix(word) })).sorted()
    }

    /// The words of `line`, lowercased, when it starts as a query typed at the prompt does
    /// (`SELECT`, `WITH`, `VALUES`, `EXPLAIN` or `PRAGMA`, then a space); nil otherwise.
    static func sqlLineWords(_ line: String) -> Set<String>? {
        let text = line.drop { $0 == " " }
        let first = text.prefix { $0.isLetter }.uppercased()
        guard ["SELECT", "WITH", "VALUES", "EXPLAIN", "PRAGMA"].contains(first), text.dropFirst(first.count).first == " " else { return nil }
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map { $0.lowercased() }
        return Set(words)
    }

    /// Where the name of the key Tab completes `word` to goes among the call's arguments,
    /// when it is the one key that starts so and the predicate takes it only as `%K` (a
    /// name with a space): the offset from the cursor, in UTF-8 bytes, and the text
    /// (`SpacedKeyArgument`); nil otherwise, or when its place is not there yet.
    public func spacedKeyArgument(before: String, word: String, after: String) -> (offset: Int, text: String)? {
        guard let string = OpenString(before), !string.isSQL, !string.takesEntityName, string.keyPathBeforeWord.isEmpty,
            let entity = lastEntityNamed(in: string.code)
        else { return nil }
        let matching = keys(of: entity, through: []).filter { $0.hasPrefix(word) }
        guard matching.count == 1, string.written(matching[0]) == "%K",
            let argument = SpacedKeyArgument(key: matching[0], in: string, after: after)
        else { return nil }
        return (argument.offset, argument.text)
    }

    /// The quote that closes the string a unique completion of `before`'s word finishes:
    /// an entity's name (`fetch("Lo` → `fetch("Location"`), as shells close a file name
    /// they complete, and a column `relate()` links or `format()` declares (a column,
    /// never a key path: `relate("web_events", "acc` → `"account_id"`, where the quote was
    /// left open and the next argument typed after it fell inside the string); nil
    /// elsewhere (a predicate or a sort string goes on after its key, a chart's key may
    /// go on through a relationship).
    public func closingQuote(before: String) -> String? {
        guard let string = OpenString(before), !string.isSQL,
            string.takesEntityName || (string.isKeyArgument && ["relate", "format"].contains(OpenCall(string.code)?.function))
        else { return nil }
        return String(string.quote)
    }

    /// The entity a call names last before an open string: `"Item"` (or `'Item'`) as a
    /// string of its own, `Item:` as a handle's method call, or `(Item,` as a handle given
    /// in the entity's place (`fetch(Item, "`).
    private func lastEntityNamed(in code: String) -> String? {
        var best: (position: String.Index, name: String)?
        for entity in context.entities {
            for pattern in ["\"\(entity.name)\"", "'\(entity.name)'", "\(entity.name):", "(\(entity.name),", "( \(entity.name),"] {
                guard let range = code.range(of: pattern, options: .backwards) else { continue }
                if let found = best, found.position >= range.lowerBound { continue }
                best = (range.lowerBound, entity.name)
            }
        }
        return best?.name
    }

    /// The keys of `entity`, or of the entity `path` leads to through its relationships.
    private func keys(of entity: String, through path: [String]) -> [String] {
        self.entity(entity, through: path)?.keyNames ?? []
    }

    /// `entity`, or the entity `path` leads to through its relationships; nil for none.
    private func entity(_ entity: String, through path: [String]) -> EntityDescription? {
        guard var description = try? context.entity(named: entity) else { return nil }
        for name in path {
            guard let relationship = description.relationship(named: name),
                let next = try? context.entity(named: relationship.destination)
            else { return nil }
            description = next
        }
        return description
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
            } else if let store = swiftObject(state, -1, kind: .store, as: OpenedStore.self), !store.isClosed,
                let entity = within(store.isDefault ? nil : store, { context.entities.first { $0.name == name } })
            {
                // `b.Item.` offers that store's Item's keys.
                quarry_pop(state, 1)
                _ = within(store.isDefault ? nil : store) { pushEntity(entity.name) }
            } else if let object = swiftObject(state, -1, kind: .object, as: ManagedObject.self),
                let relationship = context.entitiesRelationship(name, of: object), !relationship.isToMany,
                let target = try? context.relatedObject(name, of: object)
            {
                quarry_pop(state, 1)
                pushManagedObject(state, target)
            } else {
                return false
            }
        }
        return lua_type(state, -1) != LUA_TNIL
    }

    /// The keys of the value at `index`, read in the store it belongs to; a store's are its
    /// entities (`b.`) and its methods (`b:`).
    private func keys(at index: Int32, methods: Bool) -> [String] {
        if let store = swiftObject(state, index, kind: .store, as: OpenedStore.self) {
            guard !store.isClosed else { return [] }
            return methods ? methodNames(.store) : within(store.isDefault ? nil : store) { context.entities.map(\.name) }
        }
        return within(storesWereOpened ? storeOfArgument(state, index) : nil) { keysInFocus(at: index, methods: methods) }
    }

    private func keysInFocus(at index: Int32, methods: Bool) -> [String] {
        if let object = swiftObject(state, index, kind: .object, as: ManagedObject.self) {
            return methods ? methodNames(.object) : context.currentEntityDescription(of: object).keyNames
        }
        if let handle = swiftObject(state, index, kind: .entity, as: EntityHandle.self) {
            // `Item.` offers the entity's attributes and relationships, as the contract's
            // REPL section says (a key path being written), and the handle's own fields.
            guard !methods else { return methodNames(.entity) }
            return ((try? context.entity(named: handle.name).keyNames) ?? []) + ["name", "attributes"]
        }
        for kind in [UserdataKind.results, .set, .predicate, .observer, .namespace, .binding, .state]
        where userdataKind(state, index) == kind.rawValue {
            // `objects` is a results' method the prelude writes in Lua, outside the table.
            let own = kind == .results ? ["objects"] : []
            return methodNames(kind) + own
                + (methods ? [] : (kind == .results ? ["predicate", "args", "sort", "limit", "offset", "section"] : ["value"]))
        }
        if lua_type(state, index) == LUA_TSTRING, methods {
            return ["byte", "find", "format", "gmatch", "gsub", "len", "lower", "match", "rep", "reverse", "sub", "upper"]
        }
        guard lua_type(state, index) == LUA_TTABLE else { return [] }
        return LuaTable.stringKeys(state, index).keys
    }

    private func methodNames(_ kind: UserdataKind) -> [String] {
        pushMethods(kind)
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

/// A string literal left open at the end of a line being completed: the code before its
/// quote and its text up to the word.
struct OpenString {
    let code: String
    let text: String
    /// The quote that opened it (`"` or `'`).
    let quote: Character

    init?(_ before: String) {
        var quote: Character?
        var start = before.startIndex
        var index = before.startIndex
        while index < before.endIndex {
            let c = before[index]
            if let open = quote {
                if c == "\\" {
                    index = before.index(after: index)
                    if index == before.endIndex { break }
                } else if c == open {
                    quote = nil
                }
            } else if c == "\"" || c == "'" {
                quote = c
                start = index
            }
            index = before.index(after: index)
        }
        guard let quote else { return nil }
        self.quote = quote
        code = String(before[..<start])
        text = String(before[before.index(after: start)...])
    }

    /// The string is the query of `sql("` (or of `{ sql = "`, as export takes it).
    var isSQL: Bool {
        var code = Substring(self.code)
        func trim() { while code.last == " " { code.removeLast() } }
        trim()
        guard let last = code.popLast(), last == "(" || last == "=" else { return false }
        trim()
        return code.hasSuffix("sql") && !code.dropLast(3).hasSuffix(":") && !code.dropLast(3).hasSuffix(".")
            && !(code.dropLast(3).last.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false)
    }

    /// The string is an argument of a call that takes an entity's name there (`fetch("`,
    /// `count('`, `fetch{ "`, `relate("a", "b", "`, `barchart("`, `entity = "`).
    var takesEntityName: Bool {
        var code = Substring(self.code)
        func trim() { while code.last == " " { code.removeLast() } }
        trim()
        if code.last == "=" {
            code.removeLast()
            trim()
            return code.hasSuffix("entity") && OpenCall(self.code)?.bracket == "{"
        }
        // `Item:fetch("` is a predicate string: the entity is the handle.
        guard let call = OpenCall(self.code), !call.isMember else { return false }
        return Self.entityArguments[call.function]?.contains(call.argument) == true
    }

    /// The string is an argument that names a key, read whole (no `%K`, no `#`): a chart's
    /// keys, the columns `relate()` links and the one `format()` declares.
    var isKeyArgument: Bool {
        guard field == nil, let call = OpenCall(code), !call.isMember, call.bracket == "(" else { return false }
        return Self.keyArguments[call.function]?.contains(call.argument) == true
    }

    static let keyArguments: [String: Set<Int>] = [
        "histogram": [2], "barchart": [2, 3], "linechart": [2, 3], "relate": [2, 4], "format": [2]
    ]

    /// The arguments that name an entity, by function, as the contract writes their
    /// signatures: the source of a fetch, a count, a summary or a chart (results or an
    /// entity's name), both ends of `relate()`, the entity `format()` declares a column of.
    /// A table's first item counts as its first argument (`fetch{ "`).
    static let entityArguments: [String: Set<Int>] = [
        "fetch": [1], "count": [1], "first": [1], "summarize": [1], "entity": [1],
        "histogram": [1], "barchart": [1], "linechart": [1], "relate": [1, 3], "format": [1]
    ]

    /// The field whose value the string is, or an item of whose list: `sort` for
    /// `sort = "` and for `group = { "a", "` `group`; nil for an argument.
    var field: String? {
        var code = Substring(self.code)
        func trim() { while code.last?.isWhitespace == true { code.removeLast() } }
        trim()
        // The strings before it in a list: `{ "a", "b", `.
        while code.last == "," {
            code.removeLast()
            trim()
            guard let quote = code.last, quote == "\"" || quote == "'" else { return nil }
            code.removeLast()
            guard let open = code.lastIndex(of: quote) else { return nil }
            code = code[..<open]
            trim()
        }
        if code.last == "{" {
            code.removeLast()
            trim()
        }
        guard code.last == "=", code.dropLast().last != "=" else { return nil }
        code.removeLast()
        trim()
        let name = String(code.reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }.reversed())
        return name.isEmpty ? nil : name
    }

    /// `key` as this string reads it as a key: a reserved word of the predicate grammar
    /// (`size`) with `#` in a predicate, as it is where a key alone is read (a sort key, a
    /// property, a group, a section; `first`, `last` and `size` in `having`).
    func written(_ key: String) -> String {
        // A key the grammar cannot read as a name (`Original Hire`): a predicate takes it
        // as `%K`, its name among the arguments; a sort, property, group or section key
        // is read whole.
        // A key argument (`histogram("t", "`, `relate("t", "`) is read whole too.
        if isKeyArgument { return key }
        if !key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            switch field {
            case "sort", "properties", "group", "section": return key
            default: return "%K"
            }
        }
        let word = key.uppercased()
        guard ReservedKeys.words.contains(word), !text.hasSuffix("#") else { return key }
        switch field {
        case "sort", "properties", "group", "section": return key
        case "having": return ReservedKeys.indexWords.contains(word) ? key : "#" + key
        default: return "#" + key
        }
    }

    /// The relationship names before the word: `airline.` gives ["airline"]; a sort's
    /// `-` and any text before the key path are not part of it.
    var keyPathBeforeWord: [String] {
        func isName(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
        var chars = Substring(text)
        while let last = chars.last, isName(last) { chars.removeLast() }
        guard chars.last == "." else { return [] }
        var start = chars.endIndex
        while start > chars.startIndex, isName(chars[chars.index(before: start)]) || chars[chars.index(before: start)] == "." {
            start = chars.index(before: start)
        }
        return chars[start...].split(separator: ".").map(String.init)
    }
}
