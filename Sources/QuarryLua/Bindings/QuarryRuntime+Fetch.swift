import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryPredicates
import QuarryStore
import QuarrySwiftReading

/// Results as Lua sees them: the live results plus the request as the script wrote it
/// (format string and arguments), so `r.args = {...}` can re-run it.
final class ResultsHandle {
    var results: FetchResults
    var format: String?
    var arguments: [PredicateArgument]
    var variables: [String: PredicateArgument]
    /// The predicate when it was given as a `predicate(...)` object rather than a format.
    var object: Predicate?
    /// For the results `ipairs` walks (`FetchBindings.luaWalk`): where the walk began,
    /// and its sections then (sectioned results).
    var walk: ResultsWalk?
    var walkSections: [SectionInfo]?
    init(results: FetchResults, format: String?, arguments: [PredicateArgument], variables: [String: PredicateArgument]) {
        self.results = results
        self.format = format
        self.arguments = arguments
        self.variables = variables
    }
}

/// A request as read from Lua, before it runs.
struct LuaRequest {
    var request: FetchRequest
    var format: String?
    /// A `predicate(...)` object given instead of a format string.
    var object: Predicate?
    var arguments: [PredicateArgument]
    var variables: [String: PredicateArgument]
    /// `result = "objects" | "ids" | "count" | "dictionaries"`.
    var result = "objects"
    var properties: [String] = []
    var group: [String] = []
    var having: Predicate?
    var distinct = false
}

extension QuarryRuntime {
    /// Refuses up front a list of every result that `--memory` has no room for.
    func reserve(_ handle: ResultsHandle, _ perElement: Int, _ what: String) throws {
        guard quarry_memory_limit(state) > 0 else { return }
        let n = try handle.results.count()
        try LuaMemoryBudget.reserve(state, n.multipliedReportingOverflow(by: perElement).partialValue, for: "\(what) of \(n) rows")
    }

    func allObjects(_ handle: ResultsHandle) throws -> [ManagedObject] {
        return try handle.results.objects()
    }

    func results(_ call: LuaCall, _ index: Int32) throws -> ResultsHandle {
        guard let handle = swiftObject(call.state, index, kind: .results, as: ResultsHandle.self) else {
            throw call.typeError(index, expected: "results")
        }
        return handle
    }

    /// The answer in the shape the request asks for: live results, or plain values.
    func pushAnswer(_ request: LuaRequest) throws -> Int32 {
        let s = state
        noteKeysCoreDataRefuses(request.request)
        switch request.result {
        case "objects": return try pushResults(request)
        case "count":
            lua_pushinteger(s, lua_Integer(try request.request.count(in: context)))
            return 1
        case "ids":
            let ids = try request.request.objectIDs(in: context)
            try LuaMemoryBudget.reserve(s, ids.count * LuaMemoryBudget.perID, for: "a list of \(ids.count) ids")
            LuaTable.pushList(s, ids) { pushString(s, $0) }
            return 1
        default:
            // The rows remember their query, so watch() can run it again.
            let query = RowsQuery(.dictionaries(request.dictionaryRequest))
            let read = try rows(of: query)
            pushDictionaryRows(s, read)
            if request.group.isEmpty { noteTextSortedNumbers(read, request.request) }
            rememberQuery(s, -1, query)
            // A property that is a column of days prints as its days, as objects show them.
            if let entity = try? context.entity(named: request.request.entityName) {
                let days = DayAttributes(of: entity).names(in: context)
                let columns = request.properties.filter(days.contains)
                if !columns.isEmpty { rememberDayColumns(s, -1, columns) }
            }
            noteUnsavedChangesLeftOut(of: request.request, keys: request.properties + request.group)
            return 1
        }
    }

    /// Once per entity and key: a key only sub-entities have, which Quarry answers but a
    /// Core Data fetch of the same request would refuse.
    func noteKeysCoreDataRefuses(_ request: FetchRequest) {
        guard let keys = try? request.subentityOnlyKeys(in: context) else { return }
        for key in keys where subentityKeyNotices.insert("\(request.entityName).\(key)").inserted {
            writeNotice(
                "note: '\(key)' is a key of \(request.entityName)'s sub-entities only: Quarry answers it (nil on \(request.entityName)'s own rows), but Core Data refuses such a fetch (keypath not found in entity)"
            )
        }
    }

    func pushResults(_ request: LuaRequest) throws -> Int32 {
        let results: FetchResults
        results = try request.request.execute(in: context)
        if results.sortedBySectionFirst, let key = request.request.sectionKey,
            sectionNotices.insert("\(request.request.entityName).\(key)").inserted
        {
            writeNotice("note: sorting by '\(key)' first, so that sections do not repeat")
        }
        if request.request.sectionKey == nil { noteTextSortedNumbers(results, request.request) }
        let handle = ResultsHandle(results: results, format: request.format, arguments: request.arguments, variables: request.variables)
        handle.object = request.object
        pushSwiftObject(state, handle, kind: .results)
        return 1
    }

    /// Reads `("Item", "pred", args...)` or `{ "Item", predicate = ..., args = {...}, ... }`
    /// starting at argument `first`; `entity` is given when a handle's method calls.
    func request(_ call: LuaCall, from first: Int32, entity: String?) throws -> LuaRequest {
        if call.type(first) == LUA_TTABLE {
            return try tableRequest(call, at: first, entity: entity)
        }
        var index = first
        let entityName: String
        if let entity {
            entityName = entity
        } else if let handle = swiftObject(call.state, index, kind: .entity, as: EntityHandle.self) {
            entityName = handle.name
            index += 1
        } else if call.type(index) == LUA_TNIL {
            // nil given, not nothing: a name written without quotes (`fetch(plays)`).
            throw unquotedEntityName(call, index)
        } else {
            entityName = resolvedEntityName(try call.string(index))
            index += 1
        }
        if let object = predicateObject(call.state, index) {
            try checkPredicateObjectType(call.state, index, entity: entityName)
            guard call.argumentCount <= index else {
                throw call.argumentError(index + 1, "a predicate object holds its arguments already; pass them to predicate(...)")
            }
            return makeRequest(entityName, object: object)
        }
        if call.type(index) == LUA_TTABLE { throw optionsAfterEntity(call, index, entity: entityName) }
        let format = try call.optionalString(index)
        let (arguments, captures) = try predicateInputs(call, format: format, from: index + 1)
        return try makeRequest(entityName, format: format, arguments: arguments, variables: captures)
    }

    func makeRequest(_ entity: String, object: Predicate) -> LuaRequest {
        var request = FetchRequest(entityName: entity)
        request.predicate = object
        return LuaRequest(request: request, format: nil, object: object, arguments: [], variables: [:])
    }

    func makeRequest(_ entity: String, format: String?, arguments: [PredicateArgument], variables: [String: PredicateArgument]) throws -> LuaRequest {
        var request = FetchRequest(entityName: entity)
        request.predicate = try parsePredicate(format, arguments, variables, entity: entity)
        return LuaRequest(request: request, format: format, arguments: arguments, variables: variables)
    }

    /// `entity`, when known, is what the predicate tests: a `#Predicate<T>` whose `T` is
    /// neither it nor an ancestor of it is refused.
    /// `exactArguments`: false where arguments kept from before meet a new format
    /// (`r.predicate = ...` keeps `r.args`), true where both are given at once.
    func parsePredicate(
        _ format: String?, _ arguments: [PredicateArgument], _ variables: [String: PredicateArgument], entity: String? = nil,
        exactArguments: Bool = true
    ) throws -> Predicate? {
        try parsePredicateAndType(format, arguments, variables, entity: entity, exactArguments: exactArguments)?.predicate
    }

    /// What `parsePredicate` reads, with the type a `#Predicate<T>` names (nil for a format).
    func parsePredicateAndType(
        _ format: String?, _ arguments: [PredicateArgument], _ variables: [String: PredicateArgument],
        entity: String?, exactArguments: Bool = true
    ) throws -> (predicate: Predicate, type: SwiftPredicateReader.Read?)? {
        guard let format else { return nil }
        do {
            // A Swift `#Predicate` takes the values it captures by name: from `vars`, or
            // the table `predicate(text, { name = value })` is given.
            if SwiftPredicateReader.isSwift(format) {
                guard arguments.isEmpty else {
                    throw PredicateError(
                        .argument,
                        "a #Predicate takes the values it captures by name, not in order: predicate(text, { name = value }) or fetch{ ..., vars = { name = value } }",
                        column: nil)
                }
                try LuaMemoryBudget.reserveSwiftSource(state, format, what: "a #Predicate")
                let read = try swiftReader.readPredicate(format, captures: variables)
                if let entity { try checkSwiftType(read, entity: entity) }
                return (read.predicate, read)
            }
            if let request = SwiftPredicateReader.wholeRequest(format) {
                throw PredicateError(
                    .unsupported,
                    "\(request) is a whole request: give its #Predicate { ... } as the predicate and its sort as sort = [[SortDescriptor(...)]], as fetch{ entity, [[#Predicate ...]], sort = [[...]] } takes them",
                    column: 1)
            }
            let predicate = try PredicateParser.parse(
                format, arguments: PredicateArguments(arguments: arguments, variables: variables), exactArguments: exactArguments)
            noteSQLWildcards(predicate)
            noteQuotedKeys(predicate, entity: entity)
            noteNumbersWrittenAsText(predicate, entity: entity)
            noteTextDateComparisons(predicate, entity: entity)
            noteNilComparison(predicate, written: format)
            noteNotEqualMatchesNil(predicate, entity: entity)
            return (predicate, nil)
        } catch let error as PredicateError {
            // With its text, for the REPL, which shows the predicate with a caret under the column.
            throw PredicateTextError(format: format, error: error)
        }
    }

    /// Every predicate read from text comes through here (a request's, a reconfiguration's,
    /// `predicate()`'s, a `having`), so the note on SQL's wildcards in a LIKE is said from
    /// this one place, once per pattern: a literal `%` is legitimate, so it is no error.
    func noteSQLWildcards(_ predicate: Predicate) {
        for hint in predicate.sqlWildcardHints where wildcardNotices.insert(hint.message).inserted {
            writeNotice("note: " + hint.message)
        }
    }

    /// What a predicate given as text takes from the call's arguments `first...`: its
    /// arguments in order for a format string; for a Swift `#Predicate`, the values it
    /// captures, from one table of names (`{ least = 5 }`).
    func predicateInputs(_ call: LuaCall, format: String?, from first: Int32) throws -> ([PredicateArgument], [String: PredicateArgument]) {
        guard let format, SwiftPredicateReader.isSwift(format), call.argumentCount >= first else {
            return (try call.predicateArguments(from: first), [:])
        }
        let byName = "a #Predicate takes the values it captures by name, in one table: { name = value }"
        guard call.type(first) == LUA_TTABLE else { throw call.argumentError(first, byName) }
        if call.argumentCount > first { throw call.argumentError(first + 1, byName) }
        return ([], try namedPredicateArguments(call.state, first, what: "captures", operation: "predicate"))
    }

    /// A `having` format, which may name aggregates as properties do (`sum(Total) > 100`).
    func parseHaving(_ format: String, _ arguments: [PredicateArgument]) throws -> Predicate {
        do {
            let having = try DictionaryRequest.parseHaving(format, arguments: PredicateArguments(arguments: arguments, variables: [:]))
            noteSQLWildcards(having)
            return having
        } catch let error as PredicateError {
            // As `having`: the REPL has never pointed at a having's column (the line names
            // another operation than the predicate's), and does not now.
            throw error.given(as: "having")
        }
    }

    func tableRequest(_ call: LuaCall, at index: Int32, entity: String?) throws -> LuaRequest {
        let s = call.state
        // A list, in the order the options are documented: the suggestion for a name as
        // close to two options (`vargs`) is the first, the same in every run (a set's
        // order is another in each process).
        let allowed = [
            "entity", "predicate", "args", "vars", "sort", "limit", "offset", "batch", "section",
            "result", "properties", "group", "having", "distinct", "includesPending", "prefetch", "subentities", "template"
        ]
        let (keys, _) = LuaTable.stringKeys(s, index)
        for key in keys where !allowed.contains(key) {
            // SQL's ORDER BY is `sort` here, and its WHERE the `predicate`, whatever the
            // distance between the words.
            let meant =
                ["order", "orderby", "order_by"].contains(key.lowercased())
                ? "sort" : key.lowercased() == "where" ? "predicate" : closestMatch(to: key, in: allowed)
            var error = LuaError("unknown option '\(key)'", operation: call.functionName, suggestion: meant)
            if meant == nil { error.remedy = filterWrittenAsOption(s, index, key: key, entity: entity) }
            throw error
        }
        var entityName = entity
        if entityName == nil {
            if LuaTable.element(s, index, 1) == LUA_TSTRING { entityName = luaString(s, -1) }
            quarry_pop(s, 1)
        }
        // `fetch{ "Item", "n > %@", 5, sort = "n" }`: the list after the entity is the
        // predicate and its arguments, as in fetch("Item", "n > %@", 5). Anything else
        // there would be dropped silently (a "filtered" fetch then holding every row).
        // A handle's method (`Item:fetch{ "n > 5" }`) lists no entity: the predicate is first.
        let listed = try listedPredicate(s, index, from: entity == nil ? 2 : 1)
        if entityName == nil {
            if LuaTable.field(s, index, "entity") == LUA_TSTRING { entityName = luaString(s, -1) }
            quarry_pop(s, 1)
        }
        let template = try fetchTemplate(s, index, entity: &entityName)
        guard let entityName = entityName.map(resolvedEntityName) else {
            throw LuaError("the request names no entity; write fetch{ \"Item\", ... }", operation: "fetch")
        }

        var format: String?
        var object: Predicate?
        switch LuaTable.field(s, index, "predicate") {
        case LUA_TNIL: break
        case LUA_TSTRING: format = luaString(s, -1)
        default:
            object = predicateObject(s, -1)
            if object == nil {
                quarry_pop(s, 1)
                throw OptionError("predicate", mustBe: "a format string or a predicate(...) object", operation: "fetch")
            }
            do { try checkPredicateObjectType(s, -1, entity: entityName) } catch {
                quarry_pop(s, 1)
                throw error
            }
        }
        quarry_pop(s, 1)
        if let listed {
            guard format == nil, object == nil else { throw Self.predicateGivenTwice(explicit: format, listed: listed) }
            format = listed.format
        }
        if let template {
            if format != nil || object != nil { throw LuaError("a template holds its predicate; give vars, not predicate", operation: "fetch") }
            format = template
        }
        var arguments = try argumentField(s, index, "args")
        if let listed, !listed.arguments.isEmpty {
            guard arguments.isEmpty else {
                throw LuaError("the arguments are given twice: in the list after the predicate and as args =", operation: "fetch")
            }
            arguments = listed.arguments
        }
        var variables: [String: PredicateArgument] = [:]
        let varsType = LuaTable.field(s, index, "vars")
        if varsType != LUA_TNIL, varsType != LUA_TTABLE {
            quarry_pop(s, 1)
            throw OptionError("vars", mustBe: "a table such as { NAME = value }", operation: "fetch")
        }
        if varsType == LUA_TTABLE {
            variables = try namedPredicateArguments(s, lua_gettop(s), what: "vars", operation: "fetch")
        }
        quarry_pop(s, 1)
        if object != nil, !arguments.isEmpty || !variables.isEmpty {
            throw LuaError("a predicate object holds its arguments already; pass args to predicate(...)", operation: "fetch")
        }
        var request =
            try object.map { makeRequest(entityName, object: $0) }
            ?? makeRequest(entityName, format: format, arguments: arguments, variables: variables)
        request.request.sortDescriptors = try sortDescriptors(s, index, entity: entityName)
        request.request.limit = try optionalCount(s, index, "limit")
        request.request.offset = try optionalCount(s, index, "offset") ?? 0
        if let batch = try optionalCount(s, index, "batch") {
            // 0 is Core Data's "no batch size": the default.
            guard batch >= 0 else { throw OptionError("batch", mustBe: "0 or more", got: "\(batch)", operation: "fetch") }
            if batch > 0 { request.request.batchSize = batch }
        }
        try readResultShape(s, index, into: &request)
        request.request.prefetch = try stringList(s, index, "prefetch")
        if LuaTable.field(s, index, "includesPending") != LUA_TNIL { request.request.includesPendingChanges = lua_toboolean(s, -1) != 0 }
        quarry_pop(s, 1)
        if LuaTable.field(s, index, "subentities") != LUA_TNIL { request.request.includesSubentities = lua_toboolean(s, -1) != 0 }
        quarry_pop(s, 1)
        switch LuaTable.field(s, index, "section") {
        case LUA_TNIL: break
        case LUA_TSTRING: request.request.sectionKey = SortDescriptor.unescaped(luaString(s, -1))
        default:
            quarry_pop(s, 1)
            throw OptionError("section", mustBe: "a key path string", operation: "fetch")
        }
        quarry_pop(s, 1)
        // Sections hold objects: with properties, or another result, the section was
        // dropped without a word and the rows came back flat.
        if let key = request.request.sectionKey, !request.properties.isEmpty || request.result != "objects" {
            throw LuaError(
                "section = \"\(key)\" groups objects into sections; rows of properties or another result have none (group = { \"\(key)\" } groups dictionary rows)",
                operation: "fetch")
        }
        return request
    }

    func stringList(_ s: OpaquePointer, _ index: Int32, _ key: String) throws -> [String] {
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, key) {
        case LUA_TNIL: return []
        case LUA_TSTRING: return [luaString(s, -1)]
        case LUA_TTABLE:
            return try LuaTable.array(s, lua_gettop(s)) { i in
                guard lua_type(s, -1) == LUA_TSTRING else { throw OptionError("\(key)[\(i)]", mustBe: "a string", operation: "fetch") }
                return luaString(s, -1)
            }
        default: throw OptionError(key, mustBe: "a string or a table of strings", operation: "fetch")
        }
    }

    /// `t[key]`, a table of predicate arguments, or none.
    func argumentField(_ s: OpaquePointer, _ index: Int32, _ key: String) throws -> [PredicateArgument] {
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, key) {
        case LUA_TNIL: return []
        case LUA_TTABLE: return try predicateArguments(s, lua_gettop(s), what: key, operation: "fetch")
        default: throw OptionError(key, mustBe: "a table", operation: "fetch")
        }
    }

    func optionalCount(_ s: OpaquePointer, _ index: Int32, _ key: String) throws -> Int? {
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, key) {
        case LUA_TNIL: return nil
        case LUA_TNUMBER where quarry_isinteger(s, -1) != 0: return Int(quarry_tointeger(s, -1, nil))
        default: throw OptionError(key, mustBe: "an integer", operation: "fetch")
        }
    }

    /// `sort = "key"`, `sort = { "a", "-b", { "c", ascending = false, compare = "caseInsensitive" } }`.
    func sortDescriptors(_ s: OpaquePointer, _ index: Int32, entity: String) throws -> [SortDescriptor] {
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, "sort") {
        case LUA_TNIL: return []
        case LUA_TSTRING: return try sortKeys(luaString(s, -1), entity: entity)
        case LUA_TTABLE: return try sortList(s, lua_gettop(s), entity: entity)
        default: throw OptionError("sort", mustBe: "a key, or a table of keys", operation: "fetch")
        }
    }

    /// `"key"`, `"-key"`, or keys written as Swift (`SortDescriptor(\\.time, order: .reverse)`,
    /// `\\.time`, an array of them: `SwiftSortReader`). `entity` is what is sorted, whose
    /// key's type says how a `SortDescriptor` naming no comparator compares.
    func sortKeys(_ text: String, entity: String) throws -> [SortDescriptor] {
        guard SwiftSortReader.isSwift(text) else { return [SortDescriptor(parsing: text)] }
        try LuaMemoryBudget.reserveSwiftSource(state, text, what: "a sort key in Swift")
        do {
            return try swiftReader.readSortKeys(text).map { key in
                if key.comparator == SwiftSortReader.Key.stringDefault, let described = try? context.entity(named: entity) {
                    return SortDescriptor.swiftDefault(key: key.key, ascending: key.ascending, entity: described, context: context)
                }
                return SortDescriptor(
                    key: key.key, ascending: key.ascending, comparison: key.comparator.flatMap(SortDescriptor.Comparison.init(rawValue:)) ?? .binary)
            }
        } catch let error as PredicateError {
            throw PredicateTextError(format: text, error: error)
        }
    }

    func sortList(_ s: OpaquePointer, _ table: Int32, entity: String) throws -> [SortDescriptor] {
        try LuaTable.array(s, table) { i -> [SortDescriptor] in
            let item = lua_gettop(s)
            switch lua_type(s, item) {
            case LUA_TSTRING: return try sortKeys(luaString(s, item), entity: entity)
            case LUA_TTABLE:
                guard LuaTable.element(s, item, 1) == LUA_TSTRING else {
                    quarry_pop(s, 1)
                    throw LuaError("entry \(i) needs its key first, as { \"title\", ascending = true }", operation: "sort")
                }
                var descriptor = SortDescriptor(parsing: luaString(s, -1))
                quarry_pop(s, 1)
                if LuaTable.field(s, item, "ascending") != LUA_TNIL { descriptor.ascending = lua_toboolean(s, -1) != 0 }
                quarry_pop(s, 1)
                if LuaTable.field(s, item, "compare") != LUA_TNIL {
                    let name = lua_type(s, -1) == LUA_TSTRING ? luaString(s, -1) : ""
                    quarry_pop(s, 1)
                    guard let comparison = SortDescriptor.Comparison(rawValue: name) else {
                        throw OptionError(
                            "compare", mustBe: "\"binary\", \"caseInsensitive\", \"localized\" or \"localizedStandard\"", got: "'\(name)'",
                            operation: "sort")
                    }
                    descriptor.comparison = comparison
                } else {
                    quarry_pop(s, 1)
                }
                return [descriptor]
            default:
                throw OptionError("entry \(i)", mustBe: "a key or a table", operation: "sort")
            }
        }.flatMap { $0 }
    }
}

extension QuarryRuntime {
    /// The predicate format and arguments listed from `first` in `fetch{}`'s table
    /// (`fetch{ "Item", "n > %@", 5 }`), or nil when the list holds the entity alone.
    func listedPredicate(_ s: OpaquePointer, _ index: Int32, from first: Int) throws -> (format: String, arguments: [PredicateArgument])? {
        let type = LuaTable.element(s, index, first)
        defer { quarry_pop(s, 1) }
        guard type != LUA_TNIL else { return nil }
        guard type == LUA_TSTRING else {
            throw LuaError(
                "the list after the entity takes a predicate format and its arguments; write fetch{ \"Item\", \"n > %@\", 5 } or fetch{ \"Item\", predicate = ..., args = { ... } }",
                operation: "fetch")
        }
        let format = luaString(s, -1)
        var arguments: [PredicateArgument] = []
        let count = LuaTable.length(s, index)
        if count > first {
            for i in (first + 1)...count {
                _ = LuaTable.element(s, index, i)
                defer { quarry_pop(s, 1) }
                guard let argument = predicateArgument(s, -1) else {
                    throw OptionError("[\(i)]", mustBe: "a value or a list of values", operation: "fetch")
                }
                arguments.append(argument)
            }
        }
        return (format, arguments)
    }
}
