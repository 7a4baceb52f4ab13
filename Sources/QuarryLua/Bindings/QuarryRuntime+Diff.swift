import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// `diff(a, b [, options])`. Each of `a` and `b` is one side: nil (the session's store), a
/// store handle (`open()`), a model path (a `.xcdatamodeld`, one version's `.xcdatamodel`,
/// a `.momd`, a `.mom`, or a store that carries its model), an entity handle or results
/// (the objects they select, in their own store). A store's model against a model
/// (`diff("App.xcdatamodeld")`, `diff(b, path)`) or two models is a model diff: what a
/// migration from `a` to `b` changes and whether lightweight migration infers it. Two
/// stores (`diff(b)`: the session's store against b; `diff()`: the store with itself), two
/// entities or two results are an object diff.
extension QuarryRuntime {
    /// One side of a diff as the arguments give it, with the store it is of.
    enum DiffSide {
        case store(ObjectContext)
        case model(String)
        case entity(String, ObjectContext)
        case results(FetchRequest, ObjectContext)
    }

    /// The context of `store` (nil or the default: the session's), whatever the call is
    /// focused on.
    private func diffContext(of store: OpenedStore?) -> ObjectContext {
        within(store?.isDefault == false ? store : nil) { context }
    }

    func diffSide(_ call: LuaCall, _ index: Int32) throws -> DiffSide {
        if call.isNoneOrNil(index) { return .store(diffContext(of: nil)) }
        if let store = swiftObject(call.state, index, kind: .store, as: OpenedStore.self) {
            if store.isClosed { throw LuaError("\(name(of: store)) is closed: open() it again to compare it", operation: "diff") }
            return .store(diffContext(of: store))
        }
        if let handle = swiftObject(call.state, index, kind: .entity, as: EntityHandle.self) {
            return .entity(handle.name, diffContext(of: handle.store))
        }
        if let handle = swiftObject(call.state, index, kind: .results, as: ResultsHandle.self) {
            return .results(handle.results.request, handle.results.context)
        }
        guard call.type(index) == LUA_TSTRING else {
            throw call.typeError(index, expected: "nil (this store), a store, a model path, an entity or results")
        }
        return .model(try call.string(index))
    }

    /// The rows `diff` returns for the arguments of `call`, and the line that says which
    /// way they read.
    func diffRows(_ call: LuaCall) throws -> (DiffRows, caption: String) {
        // One argument that is not a table compares this store with it: diff("App.xcdatamodeld"),
        // diff(b); so does one followed by a table of options and nothing else (a plain
        // table is no side): diff(b, { by = ... }), as diff(nil, b, { by = ... }).
        let optionsSecond =
            call.argumentCount >= 2 && !call.isNoneOrNil(1) && call.type(1) != LUA_TTABLE && call.type(2) == LUA_TTABLE
            && call.isNoneOrNil(3)
        let oneSide = (call.argumentCount == 1 && call.type(1) != LUA_TTABLE) || optionsSecond
        let (a, b) = oneSide ? (DiffSide.store(diffContext(of: nil)), try diffSide(call, 1)) : (try diffSide(call, 1), try diffSide(call, 2))
        let optionsIndex: Int32 = oneSide ? 2 : (call.type(1) == LUA_TTABLE && call.argumentCount == 1 ? 1 : 3)
        let options = try diffOptions(call, optionsIndex)
        let diff: StoreDiff
        switch (a, b) {
        case (.store(let x), .store(let y)):
            diff = try StoreDiff.compare(x, y, options: options)
        case (.entity(let x, let xs), .entity(let y, let ys)):
            diff = try StoreDiff.compare(xs, entity: x, ys, entity: y, options: options)
        case (.results(let x, let xs), .results(let y, let ys)):
            diff = try StoreDiff.compare(x, in: xs, y, in: ys, options: options)
        case (.entity(let x, let xs), .results(let y, let ys)):
            diff = try StoreDiff.compare(FetchRequest(entityName: x), in: xs, y, in: ys, options: options)
        case (.results(let x, let xs), .entity(let y, let ys)):
            diff = try StoreDiff.compare(x, in: xs, FetchRequest(entityName: y), in: ys, options: options)
        case (.store, .model), (.model, .store), (.model, .model):
            let old = try diffModel(a)
            let new = try diffModel(b)
            return (DiffRows(ModelDifference(from: old, to: new)), diffCaption(from: describe(a), to: describe(b)))
        default:
            throw LuaError("compares two stores, two entities or results, or a store and a model; got one of each", operation: "diff")
        }
        // What was not compared, and why, as `.diff` says it: on stderr, the rows unchanged.
        for note in diff.notes { writeNotice("note: " + note) }
        return (DiffRows(diff, shown: { CellText.display($0) }), diffCaption(from: describe(a), to: describe(b)))
    }

    /// One side as the caption names it: a store by its file (the session's marked so),
    /// an entity or results with the store they are of, a model by its path.
    private func describe(_ side: DiffSide) -> String {
        switch side {
        case .store(let store): return storeName(store)
        case .model(let path): return path
        case .entity(let name, let store): return "\(name) of \(storeName(store))"
        case .results(let request, let store): return "the results of \(request.entityName) of \(storeName(store))"
        }
    }

    /// A store by its file or URL (no password), `(this session)` after the session's own.
    func storeName(_ store: ObjectContext) -> String {
        let path = store.path.map { URLSecrets.withoutPasswords(in: $0) }
        let name = path.flatMap { $0.isEmpty || $0 == ":memory:" ? nil : $0 } ?? "the in-memory store"
        return store === openedDefaultContext ? name + " (this session)" : name
    }

    /// Which way a diff reads, said once above it: `from a.db (this session) to b.db: +
    /// only in b.db, - only in a.db, ~ changed`, as diff(a, b) goes from a to b.
    public func diffCaption(from old: String, to new: String) -> String {
        let plain = { (name: String) in name.hasSuffix(" (this session)") ? String(name.dropLast(15)) : name }
        return "from \(old) to \(new): + only in \(plain(new)), - only in \(plain(old)), ~ changed"
    }

    private func diffModel(_ side: DiffSide) throws -> CoreDataModel {
        switch side {
        case .model(let path):
            do {
                return try context.readModel(path)
            } catch let error as StoreError where error.operation == nil {
                throw StoreError.during(operation: "diff", error)
            }
        case .store(let store), .entity(_, let store), .results(_, let store): return CoreDataModel(of: store)
        }
    }

    /// `{ by = { Item = "uuid", Line = { "order", "n" } }, tolerance = { price = 0.005 }, entities = { "Item" } }`.
    func diffOptions(_ call: LuaCall, _ index: Int32) throws -> DiffOptions {
        var options = DiffOptions()
        guard !call.isNoneOrNil(index) else { return options }
        guard call.type(index) == LUA_TTABLE else { throw call.typeError(index, expected: "table of options") }
        try Self.checkOptions(call, index, allowed: ["by", "tolerance", "entities"], operation: "diff")
        let state = call.state
        switch LuaTable.field(state, index, "by") {
        case LUA_TNIL: break
        case LUA_TTABLE:
            for entity in LuaTable.stringKeys(state, -1).keys {
                switch LuaTable.field(state, -1, entity) {
                case LUA_TSTRING: options.by[entity] = [luaString(state, -1)]
                case LUA_TTABLE:
                    options.by[entity] = try LuaTable.array(state, -1) { i in
                        guard lua_type(state, -1) == LUA_TSTRING else {
                            throw OptionError(
                                "by.\(entity)", mustBe: "a key name or a list of them", got: "item \(i) \(call.typeName(-1))", operation: "diff")
                        }
                        return luaString(state, -1)
                    }
                default:
                    throw OptionError("by.\(entity)", mustBe: "a key name or a list of them", got: call.typeName(-1), operation: "diff")
                }
                quarry_pop(state, 1)
            }
        default: throw OptionError("by", mustBe: "a table of entity = key", got: call.typeName(-1), operation: "diff")
        }
        quarry_pop(state, 1)
        switch LuaTable.field(state, index, "tolerance") {
        case LUA_TNIL: break
        case LUA_TTABLE:
            for key in LuaTable.stringKeys(state, -1).keys {
                LuaTable.field(state, -1, key)
                defer { quarry_pop(state, 1) }
                var isNumber: Int32 = 0
                let value = lua_tonumberx(state, -1, &isNumber)
                guard lua_type(state, -1) == LUA_TNUMBER, isNumber != 0, value >= 0, value.isFinite else {
                    throw OptionError("tolerance.\(key)", mustBe: "a number 0 or more", got: call.typeName(-1), operation: "diff")
                }
                options.tolerance[key] = value
            }
        default: throw OptionError("tolerance", mustBe: "a table of attribute = number", got: call.typeName(-1), operation: "diff")
        }
        quarry_pop(state, 1)
        switch LuaTable.field(state, index, "entities") {
        case LUA_TNIL: break
        case LUA_TTABLE:
            options.entities = try LuaTable.array(state, -1) { i in
                if let handle = swiftObject(state, -1, kind: .entity, as: EntityHandle.self) { return handle.name }
                guard lua_type(state, -1) == LUA_TSTRING else {
                    throw OptionError("entities", mustBe: "a list of entities or names", got: "item \(i) \(call.typeName(-1))", operation: "diff")
                }
                return resolvedEntityName(luaString(state, -1))
            }
        default: throw OptionError("entities", mustBe: "a list of entities or names", got: call.typeName(-1), operation: "diff")
        }
        quarry_pop(state, 1)
        return options
    }
}

extension QuarryRuntime {
    /// A diff drawn as `diff()`'s rows print (`.diff` in the shell), in the session's mode.
    public func renderDiff(_ diff: StoreDiff, with other: ObjectContext) -> String {
        let rows = DiffRows(diff, shown: { CellText.display($0) })
        var table = TextTable.rows(headers: rows.columns, values: rows.rows, format: tableFormat)
        table.caption = diffCaption(from: storeName(context), to: storeName(other))
        // An object's key is what a person copies: whole, as a results table's IDs.
        if let key = rows.columns.firstIndex(of: "key") { table.wholeColumns = [key] }
        return table.render(tableFormat)
    }
}
