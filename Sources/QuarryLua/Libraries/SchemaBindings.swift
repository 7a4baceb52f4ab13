import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryPredicates
import QuarryStore

/// The Lua side of entity(), relate(), format(), entities() and entities' methods: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum SchemaBindings {
    /// Globals, also fields of `quarry`.
    static let schemaLibrary: [LuaBinding] = [
        LuaBinding("entity", luaEntity),
        LuaBinding("relate", luaRelate),
        LuaBinding("format", luaFormat),
        LuaBinding("entities", luaEntities)
    ]

    /// Methods, found through `__index`.
    static let entityMethods: [LuaBinding] = [
        LuaBinding("new", luaEntityNew),
        LuaBinding("fetch", luaEntityFetch),
        LuaBinding("count", luaEntityCount),
        LuaBinding("first", luaEntityFirst),
        LuaBinding("updateall", luaEntityUpdateall),
        LuaBinding("deleteall", luaEntityDeleteall),
        LuaBinding("swift", luaEntitySwift),
        LuaBinding("get", luaEntityGet)
    ]

    /// The prelude wraps this in Lua so that `entity "Item" { ... }` also works.
    static func luaEntity(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let name = try call.string(1)
        return try runtime.defineEntity(name, call, definitionAt: 2)
    }

    static func luaRelate(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        func name(_ i: Int32) throws -> String {
            if let handle = swiftObject(call.state, i, kind: .entity, as: EntityHandle.self) { return handle.name }
            return try call.string(i)
        }
        // A column, or a list of them for a key of several (`{ "player", "inv_id" }`).
        func columns(_ i: Int32) throws -> [String] {
            guard call.type(i) == LUA_TTABLE else { return [try call.string(i)] }
            let names = try LuaTable.array(call.state, i) { k in
                guard lua_type(call.state, -1) == LUA_TSTRING else { throw call.argumentError(i, "column \(k) must be a string") }
                return luaString(call.state, -1)
            }
            if names.isEmpty { throw call.argumentError(i, "a list of columns needs at least one") }
            return names
        }
        let relationship: RelationshipDescription
        // Under --safe a declaration lasts the session: no sidecar file is written.
        let (source, sourceColumns, destination, destinationColumns) = (try name(1), try columns(2), try name(3), try columns(4))
        let (given, inverse) = (try call.optionalString(5), try call.optionalString(6))
        relationship = try runtime.notingANewSidecar {
            try runtime.context.relate(
                source, sourceColumns, destination, destinationColumns, name: given, inverse: inverse, keep: !runtime.isSandboxed)
        }
        runtime.noteRowsPointingNowhere(relationship, of: source, columns: sourceColumns, to: destination, keys: destinationColumns)
        // Both names it made: the to-one, and its inverse on the destination, which
        // would otherwise be guessed or read from .schema.
        _ = call.push(relationship.name)
        guard let inverse = relationship.inverse else { return 1 }
        _ = call.push(inverse)
        return 2
    }

    /// format("Entity", "column" [, "format" [, { never = 0 }]]): declares how a column of
    /// a file Quarry did not create keeps its values; returns the format its writes use.
    static func luaFormat(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let entity = try swiftObject(call.state, 1, kind: .entity, as: EntityHandle.self)?.name ?? call.string(1)
        let column = try call.string(2)
        let never = try formatNever(call)
        if let declared = try call.optionalString(3) {
            let note = try runtime.notingANewSidecar {
                try runtime.context.declareFormat(entity, column, declared, never: never, keep: !runtime.isSandboxed)
            }
            if let note { runtime.writeNotice(note) }
            // A file opened read-only keeps no sidecar: said once, not found out on reopening.
            if runtime.context.isReadOnly, !runtime.isSandboxed, runtime.readOnlyFormatNotices.insert("\(entity).\(column)").inserted,
                let described = try? runtime.context.entity(named: entity),
                runtime.context.mapped(described).layout == .foreignView || runtime.context.mapped(described).keepsAnyType
            {
                runtime.writeNotice(
                    "note: format(): \(entity).\(column) is read as \(declared) for this session only: under --readonly the file's sidecar is not written"
                )
            }
        } else if never != nil {
            throw call.argumentError(4, "options need a format to go with (e.g. format(e, a, \"webkit\", { never = 0 }))")
        }
        let name: String?
        do {
            name = try runtime.context.columnFormat(entity, column)
        } catch let error as StoreError {
            // Asked of a column whose values show no one format: nil and why, as `io.open`
            // answers; the refusal itself belongs to a write.
            guard case .unknownFormat = error else { throw error }
            _ = call.pushNil()
            _ = call.push(error.message)
            return 2
        }
        guard let name else { return call.pushNil() }
        // Asked of a text column whose text is ISO times: its writes are plain text, and
        // the declaration that makes it a date is said, as a comparison with a date says it.
        if call.isNoneOrNil(3), name == "plain", let described = try? runtime.context.entity(named: entity),
            described.attribute(named: column)?.type == .string, let hint = runtime.context.isoTextHint(described, column)
        {
            runtime.writeNotice("note: \(entity).\(column) is text, written as given; \(hint)")
        }
        return call.push(name)
    }

    /// format()'s options table: `never`, the stored number that means no time.
    private static func formatNever(_ call: LuaCall) throws -> Int64? {
        guard !call.isNoneOrNil(4) else { return nil }
        try call.table(4)
        try QuarryRuntime.checkOptions(call, 4, allowed: ["never"], operation: "format")
        defer { quarry_pop(call.state, 1) }
        switch LuaTable.field(call.state, 4, "never") {
        case LUA_TNIL: return nil
        case LUA_TNUMBER:
            var isInteger: Int32 = 0
            let value = quarry_tointeger(call.state, -1, &isInteger)
            guard isInteger != 0 else { throw OptionError("never", mustBe: "an integer", got: luaString(call.state, -1), operation: "format") }
            return value
        default: throw OptionError("never", mustBe: "an integer", got: call.typeName(-1), operation: "format")
        }
    }

    static func luaEntities(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let entities = runtime.context.entities
        LuaTable.pushList(call.state, entities) { _ = runtime.pushEntity($0.name) }
        return 1
    }

    static func luaEntityNew(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let entity = try runtime.entityName(call)
        // `b.Item:new(o)`: a copy of an object (of any store), and what it left out.
        if userdataKind(call.state, 2) == UserdataKind.object.rawValue {
            let (copies, leftOut) = try runtime.copy([try runtime.object(call, 2)], as: entity)
            _ = runtime.pushObject(copies.first)
            LuaTable.pushList(call.state, leftOut) { pushString(call.state, $0) }
            return 2
        }
        let description: EntityDescription
        description = try runtime.context.entity(named: entity)
        var values: [String: Value] = [:]
        var relationshipKeys: [String] = []
        if !call.isNoneOrNil(2) {
            try call.table(2)
            let (keys, nonString) = LuaTable.stringKeys(call.state, 2)
            if nonString { throw call.argumentError(2, "keys must be attribute names") }
            // Sized ahead only for several keys: the standard library's sizing is its
            // generic code (700 instructions with the initializer, 1,100 with
            // `reserveCapacity`), where growing by one or two is specialized here.
            if keys.count > 2 { values = Dictionary(minimumCapacity: keys.count) }
            let composites = description.compositeNames
            for key in keys {
                if description.relationship(named: key) != nil {
                    relationshipKeys.append(key)
                    continue
                }
                LuaTable.field(call.state, 2, key)
                defer { quarry_pop(call.state, 1) }
                if !composites.isEmpty, composites.contains(key), description.attribute(named: key) == nil {
                    let elements = description.compositeElements(of: key)
                    values.merge(try CompositeValues.values(call.state, -1, key, entity: entity, elements: elements)) { _, new in new }
                    continue
                }
                guard let value = try attributeValue(call.state, -1, for: description.attribute(named: key)) else {
                    throw LuaError.cannotHold(entity, key, call.typeName(-1))
                }
                values[key] = value
            }
        }
        let object: ManagedObject
        // The description looked up above: looking it up again was 1% of making 20,000.
        do {
            object = try runtime.context.insert(into: description, values: values, linking: relationshipKeys)
        } catch {
            throw runtime.explainingDateText(error, description, values)
        }
        do {
            for key in relationshipKeys {
                LuaTable.field(call.state, 2, key)
                defer { quarry_pop(call.state, 1) }
                try runtime.assignRelationship(object, key, valueAt: lua_gettop(call.state), call)
            }
        } catch {
            // All or nothing: an object whose relationships failed is not inserted.
            try? runtime.context.delete(object)
            throw error
        }
        return runtime.pushObject(object)
    }

    static func luaEntityFetch(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let entity = try runtime.entityName(call)
        // As fetch{} with the entity filled in: `result`, `properties`, `group` and
        // `distinct` shape the answer here too, where objects came back without a word.
        return try runtime.pushAnswer(try runtime.request(call, from: 2, entity: entity))
    }

    static func luaEntityCount(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let entity = try runtime.entityName(call)
        let request = try runtime.request(call, from: 2, entity: entity)
        if request.result == "dictionaries" { return call.push(try runtime.countRows(request)) }
        runtime.noteKeysCoreDataRefuses(request.request)
        let results = try request.request.execute(in: runtime.context)
        let n = try results.count()
        runtime.noteTextCells(results)
        return call.push(n)
    }

    static func luaEntityFirst(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let entity = try runtime.entityName(call)
        var request = try runtime.request(call, from: 2, entity: entity)
        // An object is what first() gives: a shape of rows asked of it is refused, not dropped.
        if request.result != "objects" {
            throw LuaError(
                "it gives the first object; result, properties, group and distinct shape what fetch{} gives: \(entity):fetch{ ..., limit = 1 }[1] is the first of those",
                operation: "first")
        }
        request.request.limit = 1
        runtime.noteKeysCoreDataRefuses(request.request)
        return runtime.pushObject(try request.request.execute(in: runtime.context).object(at: 0))
    }

    static func luaEntityUpdateall(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let entity = try runtime.entityName(call)
        // `updateall({ name = "x" })`: the values alone, as SQL's `UPDATE t SET` reads
        // without a WHERE; the form that sets every row, rather than "bad argument #1
        // (string expected, got table)".
        if call.argumentCount == 2, call.type(2) == LUA_TTABLE, runtime.predicateObject(call.state, 2) == nil,
            LuaTable.length(call.state, 2) == 0, LuaTable.hasStringKey(call.state, 2)
        {
            let keys = LuaTable.stringKeys(call.state, 2).keys.sorted().map { "\($0) = ..." }.joined(separator: ", ")
            throw LuaError(
                "the values to set come after a predicate and its arguments: updateall(nil, {}, { \(keys) }) sets every row, "
                    + "updateall(\"pred\", { args }, { \(keys) }) the rows that match",
                operation: "updateall")
        }
        let (predicate, next) = try runtime.batchPredicate(call, entity: entity)
        // `updateall("id == 1", { plays = 5 })`: the values where the predicate's arguments
        // go, as a guess from `fetch`'s shape; the form that takes them, rather than "bad
        // argument #3 (table expected, got no value)".
        if call.isNoneOrNil(next), next > 2, call.type(next - 1) == LUA_TTABLE, !LuaTable.stringKeys(call.state, next - 1).keys.isEmpty {
            let keys = LuaTable.stringKeys(call.state, next - 1).keys.sorted().map { "\($0) = ..." }.joined(separator: ", ")
            throw LuaError(
                "the values to set come after the predicate's arguments: updateall(\"pred\", {}, { \(keys) })",
                operation: "updateall")
        }
        // `updateall("id = 1", 5)`: no values at all, where "bad argument #3 (table
        // expected, got no value)" names an argument the person did not write.
        if call.isNoneOrNil(next), next > 2 {
            throw LuaError(
                "the values to set are a table after the predicate and its arguments: updateall(\"pred\", { args }, { key = value, ... })",
                operation: "updateall")
        }
        try call.table(next)
        guard try confirmsEveryRow(runtime, "update", entity, predicate) else { return call.push(0) }
        var values: [String: Value] = [:]
        let description = try? runtime.context.entity(named: entity)
        for key in LuaTable.stringKeys(call.state, next).keys {
            LuaTable.field(call.state, next, key)
            defer { quarry_pop(call.state, 1) }
            guard let value = try attributeValue(call.state, -1, for: description?.attribute(named: key)) else {
                throw LuaError.cannotHold(entity, key, call.typeName(-1), operation: "updateall")
            }
            values[key] = value
        }
        let n: Int
        n = try BatchUpdateRequest(entity, where: predicate, set: values).execute(in: runtime.context)
        for note in runtime.context.takeWriteNotes() { runtime.writeNotice("note: " + note) }
        noteWrittenAtOnce(runtime, n)
        runtime.deliver()
        lua_settop(call.state, 0)
        return call.push(n)
    }

    static func luaEntityDeleteall(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let entity = try runtime.entityName(call)
        let (predicate, next) = try runtime.batchPredicate(call, entity: entity, valuesFollow: false)
        guard call.isNoneOrNil(next) else {
            throw call.argumentError(next, "no value expected: deleteall takes a predicate and a table of its arguments")
        }
        guard try confirmsEveryRow(runtime, "delete", entity, predicate) else { return call.push(0) }
        let deleted = try BatchDeleteRequest(entity, where: predicate).executeReporting(in: runtime.context)
        let n = deleted.count
        noteWrittenAtOnce(runtime, n)
        // The count is the entity's rows; what its cascade rules took is no less gone.
        if !deleted.cascaded.isEmpty {
            let taken = deleted.cascaded.sorted { $0.key < $1.key }.map { "\(grouped($0.value)) \($0.value == 1 ? "row" : "rows") of \($0.key)" }
            runtime.writeNotice("note: the delete rules also deleted " + taken.joined(separator: ", ") + " (cascade)")
        }
        runtime.deliver()
        lua_settop(call.state, 0)
        return call.push(n)
    }

    /// At the prompt: rows a batch request changed are in the file already, where every
    /// other change typed there waits for `save()` (and `.changes` lists it).
    private static func noteWrittenAtOnce(_ runtime: QuarryRuntime, _ rows: Int) {
        guard runtime.settings.notesBatchWrites, rows > 0 else { return }
        runtime.writeNotice("note: " + ForeignFileNotes.writtenAtOnce)
    }

    /// A batch request without a predicate (or with one true of every row) changes every
    /// row at once, past `rollback()`:
    /// at an interactive prompt it asks first (`delete all 275 rows of notes? [y/N]`), as
    /// pgcli asks before a destructive statement without a condition. True when it may
    /// go on (a predicate, no one to ask, no rows, or yes); a no says nothing was changed.
    private static func confirmsEveryRow(_ runtime: QuarryRuntime, _ verb: String, _ entity: String, _ predicate: Predicate?) throws -> Bool {
        // An always-true predicate (`TRUEPREDICATE`, `1 == 1`) names every row too, and so
        // does a key's name in quotes compared with a constant (`"Balance" > 100000`, two
        // strings as SQL's habit writes a column) where that is true of every row.
        let keys = (try? runtime.context.entity(named: entity).keyNames) ?? []
        let quotedKey = predicate.map { !$0.quotedKeyHints(keys: keys).isEmpty } ?? false
        guard predicate?.isAlwaysTrue ?? true || quotedKey, let confirm = runtime.settings.confirm else { return true }
        let rows = try FetchRequest(entityName: entity).count(in: runtime.context)
        guard rows > 0 else { return true }
        if quotedKey, !(predicate?.isAlwaysTrue ?? true) {
            guard try FetchRequest(entityName: entity, predicate: predicate).count(in: runtime.context) == rows else { return true }
        }
        let reach = verb == "delete" ? cascadeWarning(runtime, entity) : ""
        if confirm("\(verb) all \(grouped(rows)) \(rows == 1 ? "row" : "rows") of \(entity)\(reach)?") { return true }
        // What named every row: no predicate, or one written with a key in quotes (the
        // note before the question said how to write it).
        let why =
            predicate == nil || predicate?.isAlwaysTrue == true
            ? "a predicate names the rows to \(verb)" : "the key in quotes is a string here: written bare or with %K, it compares the key's values"
        runtime.writeNotice("note: nothing \(verb)d (\(why); .destructive off stops asking)")
        return false
    }

    /// The question before deleting every row names the entities its cascade rules reach
    /// too, as they go in the same statement: ` (its delete rules cascade to Node)`.
    private static func cascadeWarning(_ runtime: QuarryRuntime, _ entity: String) -> String {
        guard let e = try? runtime.context.entity(named: entity) else { return "" }
        let reached = Set(e.relationships.filter { $0.deleteRule == .cascade }.map(\.destination)).sorted()
        return reached.isEmpty ? "" : " (its delete rules cascade to \(reached.joined(separator: ", ")))"
    }

    static func luaEntitySwift(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        call.push(try runtime.swiftSource(of: try runtime.entityName(call), style: try call.optionalString(2), call))
    }

    static func luaEntityGet(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        var entity = try runtime.entityName(call)
        let key: Int64
        // The columns of the table's own primary key, when it has one that is not the
        // object's number itself (a text, UUID or composite key): `get("VX")`, `get{ 1, 2 }`.
        let storage = runtime.context.mapped(try runtime.context.entity(named: entity))
        let ownKey = storage.primaryKey == [storage.keyColumn] && storage.numberedRows == nil ? [] : storage.primaryKey
        if call.type(2) == LUA_TSTRING {
            // The ID may name a sub-entity, as an object fetched through its parent
            // gives it (Car:get("SportCar/7")); that entity's rows are looked in.
            let id = try call.string(2)
            let parts = id.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, runtime.context.isKind(String(parts[0]), of: entity), let n = Int64(parts[1]) else {
                // An ID that names its row by its key (`airlines/VX`: `ObjectIDKey`).
                if parts.count == 2, String(parts[0]) == entity, let name = storage.namingKey(of: try runtime.context.entity(named: entity)),
                    let shown = ObjectIDKey.key(in: String(parts[1]))
                {
                    return try getByKey(runtime, call, entity: entity, keys: [name], values: [.text(shown)])
                }
                if !ownKey.isEmpty { return try getByKey(runtime, call, entity: entity, keys: ownKey) }
                throw call.argumentError(2, "expected an object ID such as '\(entity)/1', got '\(id)'")
            }
            entity = String(parts[0])
            key = n
        } else if call.type(2) == LUA_TTABLE {
            // A composite key's values. A number stays the object's number, as its ID has it.
            guard !ownKey.isEmpty else {
                throw call.argumentError(2, "expected an object ID such as '\(entity)/1': \(entity) has no primary key of its own to look up")
            }
            return try getByKey(runtime, call, entity: entity, keys: ownKey)
        } else {
            // A table's own key of one column that is not the object's number (`code TEXT
            // PRIMARY KEY`, `id INT PRIMARY KEY`, `INTEGER PRIMARY KEY DESC`): a number is
            // the key the person sees in the column, as `WHERE code = 1` compares it (a
            // TEXT key's `'1'`, `get(5.0)`'s `'5.0'`), not the row's place, which found
            // another row without a word. An object ID (`get("languages/1")`) still names
            // the row's number, as does the number made from a key without a rowid
            // (`KeyNumber`), which no key typed by hand is near.
            if ownKey.count == 1, lua_type(call.state, 2) == LUA_TNUMBER,
                let attribute = try runtime.context.entity(named: entity).attribute(named: ownKey[0]),
                [.int16, .int32, .int64, .double, .decimal, .string].contains(attribute.type)
            {
                let number: Value =
                    lua_isinteger(call.state, 2) != 0 ? .integer(lua_tointegerx(call.state, 2, nil)) : .real(lua_tonumberx(call.state, 2, nil))
                var numbersAnObject = false
                if storage.numberedRows != nil, case .integer(let n) = number {
                    numbersAnObject = try runtime.context.object(entityName: entity, primaryKey: n) != nil
                }
                if !numbersAnObject {
                    let asText = attribute.type == .string && !storage.untyped.contains(attribute.name)
                    return try getByKey(runtime, call, entity: entity, keys: ownKey, values: [asText ? ColumnAffinity.text.stored(number) : number])
                }
            }
            key = try call.integer(2)
        }
        let found = try runtime.context.object(entityName: entity, primaryKey: key)
        // A note only: whatever keeps it from being said leaves the object found as it is.
        if call.type(2) != LUA_TSTRING { try? noteRowNumberGet(runtime, entity: entity, number: key, found: found) }
        return runtime.pushObject(found)
    }

    /// `Entity:get(value)` by the table's primary key (`get{ a, b }` for one of several
    /// columns): the row whose key columns equal the values, asked in SQL as any fetch is;
    /// nil when there is none.
    private static func getByKey(_ runtime: QuarryRuntime, _ call: LuaCall, entity: String, keys: [String], values given: [Value]? = nil) throws
        -> Int32
    {
        var values = given ?? []
        if given == nil, call.type(2) == LUA_TTABLE {
            for i in 1...max(Int(lua_rawlen(call.state, 2)), 1) {
                lua_rawgeti(call.state, 2, lua_Integer(i))
                defer { quarry_pop(call.state, 1) }
                guard let value = luaValue(call.state, -1), !value.isNull else {
                    let expected = "\(keys.count) key value\(keys.count == 1 ? "" : "s") (\(keys.joined(separator: ", ")))"
                    throw call.argumentError(2, "expected \(expected), item \(i) is \(call.typeName(-1))")
                }
                values.append(value)
            }
        } else if given == nil, let value = luaValue(call.state, 2), !value.isNull {
            values = [value]
        }
        guard values.count == keys.count else {
            throw call.argumentError(
                2,
                "\(entity)'s primary key has \(keys.count) column\(keys.count == 1 ? "" : "s") (\(keys.joined(separator: ", "))): "
                    + (keys.count == 1 ? "get(value)" : "get{ \(keys.joined(separator: ", ")) }") + ", or an object ID such as '\(entity)/1'")
        }
        var arguments: [Value] = []
        for (name, value) in zip(keys, values) { arguments += [.text(name), value] }
        let predicate = try PredicateParser.parse(
            keys.map { _ in "%K == %@" }.joined(separator: " AND "), arguments: PredicateArguments(arguments))
        let results = try FetchRequest(entityName: entity, predicate: predicate, limit: 1).execute(in: runtime.context)
        guard try results.count() > 0 else { return call.pushNil() }
        return runtime.pushObject(try results.object(at: 0))
    }

    static let entityMetamethods: [LuaBinding] = [
        LuaBinding("__index", luaEntityIndex),
        LuaBinding("__tostring", luaEntityTostring)
    ]

    static func luaEntityIndex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let name = try runtime.entityName(call)
        let key = try call.string(2)
        if runtime.pushMethod(.entity, key) { return 1 }
        if key == "name" { return call.push(name) }
        if key == "attributes" {
            let names = (try? runtime.context.entity(named: name).attributeNames) ?? []
            LuaTable.pushList(call.state, names) { pushString(call.state, $0) }
            return 1
        }
        // Every method `Entity:` offers (Tab lists the same), and the one a typo was near.
        let methods = entityMethods.map(\.name)
        throw LuaError(
            "entity \(name) has no method or field '\(key)' (methods: \(methods.joined(separator: ", ")); fields: name, attributes)",
            suggestion: closestMatch(to: key, in: methods + ["name", "attributes"]))
    }

    static func luaEntityTostring(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        call.push(runtime.entityDefinition(try runtime.entityName(call)))
    }
}
