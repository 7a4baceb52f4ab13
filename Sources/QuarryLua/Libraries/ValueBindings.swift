import CLua
import CQuarryShim
import Foundation
import QuarryModel
import QuarryStore

/// The Lua side of date(), now(), help(), typeof() and dates' metamethods: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum ValueBindings {
    /// Globals, also fields of `quarry`.
    static let valueLibrary: [LuaBinding] = [
        LuaBinding("date", luaDate),
        LuaBinding("now", luaNow),
        LuaBinding("help", luaHelp),
        LuaBinding("typeof", luaTypeof)
    ]

    static func luaDate(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        switch call.type(1) {
        case LUA_TSTRING:
            let text = try call.string(1)
            guard let seconds = Value.parseISO8601(text) else {
                throw call.argumentError(1, "'\(text)' is not an ISO 8601 date such as 2024-01-22T16:26:12Z")
            }
            // A fraction past the millisecond can carry 9999-12-31T23:59:59 past the last
            // instant a date holds: refused as the same instant given in seconds is.
            guard Value.dateRange.contains(seconds) else {
                throw call.argumentError(1, "'\(text)' is outside the years 0001 to 9999")
            }
            pushDate(call.state, seconds)
        case LUA_TNUMBER:
            let seconds = quarry_tonumber(call.state, 1, nil)
            guard Value.dateRange.contains(seconds) else {
                throw call.argumentError(1, "\(seconds) seconds is outside the years 0001 to 9999")
            }
            pushDate(call.state, seconds)
        default:
            guard let seconds = dateValue(call.state, 1) else { throw call.typeError(1, expected: "ISO 8601 string or number") }
            pushDate(call.state, seconds)
        }
        return 1
    }

    static func luaNow(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        pushDate(call.state, Date().timeIntervalSince1970)
        return 1
    }

    /// help(fn), help("name"), help("Item:updateall"), help(Item.updateall): the usage,
    /// what it does and an example, wrapped to the terminal; help(): what has help. It
    /// prints the text (through the pager when the REPL has one and it is long) and returns
    /// nothing, the same at the prompt, in a script and in `-e`, as Python's help() does:
    /// `help(sql)` shows something in a script, and `print(help(sql))` prints it once.
    static func luaHelp(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let text = try helpText(runtime, call)
        if !runtime.console.page(text) { runtime.console.write(text + "\n") }
        return 0
    }

    private static func helpText(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> String {
        let width = runtime.tableFormat.width
        let entries: [FunctionHelp]
        if call.type(1) == LUA_TSTRING, luaString(call.state, 1).hasPrefix(".") {
            // help(".diff"): the dot-command's, as `.help diff` prints it.
            let name = String(luaString(call.state, 1).dropFirst())
            let commands = runtime.settings.dotCommandHelp
            guard let command = commands.first(where: { $0.name == name }) else {
                let suggestion = closestMatch(to: name, in: commands.map(\.name)).map { "." + $0 }
                throw call.argumentError(1, "no help for '.\(name)': no such dot-command (.help lists them)", suggestion: suggestion)
            }
            // The same line `.help NAME` prints, as it prints it.
            return ErrorRendering.escaped(command.text)
        } else if call.type(1) == LUA_TSTRING {
            let name = luaString(call.state, 1)
            entries = FunctionHelp.lookup(name)
            guard !entries.isEmpty else {
                // `Item:updatal`: the method's name is matched, and suggested as it was written.
                let separator = name.lastIndex { $0 == ":" || $0 == "." }
                let written = separator.map { String(name[...$0]) } ?? ""
                let bare = separator.map { String(name[name.index(after: $0)...]) } ?? name
                if separator == nil, let way = FunctionHelp.otherWord(name) { throw call.argumentError(1, "no help for '\(name)' here: \(way)") }
                // help("film"), as help(film): an entity's name says what it answers.
                if separator == nil, runtime.context.entities.contains(where: { $0.name == name }),
                    let list = FunctionHelp.methodList(of: UserdataKind.entity.rawValue, named: name, width: width)
                {
                    return list
                }
                let names =
                    (separator == nil ? FunctionHelp.all.map(\.name) : []) + FunctionHelp.methods.map(\.name)
                    + (separator == nil ? FunctionHelp.options.map(\.name) : [])
                throw call.argumentError(1, "no help for '\(name)'", suggestion: closestMatch(to: bare, in: names).map { written + $0 })
            }
        } else if call.argumentCount >= 1, call.isNoneOrNil(1) {
            // help(updateall), help(show): the name holds nothing here, so the value given
            // is nil; the functions that are no globals are named as they are called.
            // A mistyped function's name (`help(fetchh)`): the one meant, as for a string.
            if let written = runtime.nilGlobalArgument(call, 1), let meant = closestMatch(to: written, in: FunctionHelp.all.map(\.name)),
                meant != written,
                let function = FunctionHelp.all.first(where: { $0.name == meant })
            {
                return
                    "help was given nil: '\(written)' holds no value here (did you mean '\(function.calledName)'?): help(\(function.calledName)) describes it"
            }
            let fields = FunctionHelp.all.map(\.calledName).filter { $0.hasPrefix("quarry.") }
            let called = fields.isEmpty ? "" : "; " + fields.joined(separator: " and ") + " are called through quarry: help(\(fields[0]))"
            return
                #"help was given nil: the name typed holds no value here (a method is no global: help("updateall"), help("Item:updateall") or help(Item.updateall)"#
                + called + "); help() lists everything that has help"
        } else if !call.isNoneOrNil(1) {
            entries = helpOfValue(runtime, call)
            // A value with methods (an entity handle, an object, results): what it answers.
            if entries.isEmpty, let kind = userdataKind(call.state, 1),
                let list = FunctionHelp.methodList(of: kind, named: describedValue(runtime, call, kind: kind), width: width)
            {
                return list
            }
            // Rows of a group, sql() or summarize(): a plain list, whose uses are said.
            if entries.isEmpty, let columns = quarryRowsColumns(call.state, 1) {
                let text = ErrorRendering.escaped(rowsHelp(count: LuaTable.length(call.state, 1), columns: columns))
                return FunctionHelp.wrapped(text, width: width > 20 ? width : 80)
                    .joined(separator: "\n")
            }
            if entries.isEmpty, let name = luaLibraryName(call.state) {
                return "\(name) is Lua's own: https://www.lua.org/manual/5.4/manual.html#pdf-\(name) describes it"
            }
            guard !entries.isEmpty else {
                throw call.argumentError(1, "no help for this \(call.typeName(1)) (help() lists the functions and methods that have help)")
            }
        } else {
            let methods = FunctionHelp.methods.map(\.listedName)
            let lines = [
                #"methods, as help("Item:updateall") or help(r.configure) takes them: "# + methods.joined(separator: ", "),
                "help(fn) describes one of: " + FunctionHelp.all.map(\.calledName).joined(separator: ", "),
                #"fetch{} keys, as help("group") takes them: "# + FunctionHelp.options.map(\.name).joined(separator: ", ")
            ]
            // Both lists wrapped to the terminal, as the rest of help is (80 columns off one).
            return lines.flatMap { FunctionHelp.wrapped($0, width: width > 20 ? width : 80) }.joined(separator: "\n")
        }
        return entries.map { $0.text(width: width) }.joined(separator: "\n\n")
    }

    /// What `help(r)` says of dictionary rows (`fetch{ ..., group = }`, `sql()`,
    /// `summarize()`): a Lua list with no methods of its own, and what takes it.
    static func rowsHelp(count: Int, columns: [String]) -> String {
        let first = columns.first ?? "key"
        let isName = first.first.map { $0.isLetter || $0 == "_" } == true && first.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        let read = isName ? "r[1].\(first)" : "r[1][\"\(first)\"]"
        return "dictionary rows (from fetch{ ..., group = ... }, sql() or summarize()): a Lua list of \(count) row\(count == 1 ? "" : "s"), "
            + "each a table from column to value (columns: \(columns.joined(separator: ", "))). They have no methods: read them as any "
            + "list (#r, \(read), ipairs(r)), and give them to print(r), export(r, path), watch(r), "
            + "histogram(r, key), barchart(r, labelKey, valueKey) or linechart(r, xKey, yKey). fetch{ ... } without group gives "
            + "results, whose methods help(r) lists."
    }

    /// The help of the function at argument 1: a global's (by the global's name), else the
    /// method it is (`Item.updateall`, `r.configure`), found in each kind's methods.
    private static func helpOfValue(_ runtime: QuarryRuntime, _ call: LuaCall) -> [FunctionHelp] {
        let state = call.state
        // A global's name, else a field's of `quarry` (quarry.show).
        for table in 0..<2 {
            var name: String?
            if table == 0 { quarry_pushglobaltable(state) } else { runtime.pushQuarryTable() }
            lua_pushnil(state)
            while lua_next(state, -2) != 0 {
                if lua_type(state, -2) == LUA_TSTRING, lua_rawequal(state, -1, 1) != 0 { name = luaString(state, -2) }
                quarry_pop(state, 1)
            }
            quarry_pop(state, 1)
            if let name, !FunctionHelp.lookup(name).isEmpty { return FunctionHelp.lookup(name) }
        }
        for kind in UserdataKind.allCases {
            runtime.pushMethods(kind)
            var method: String?
            lua_pushnil(state)
            while lua_next(state, -2) != 0 {
                if lua_type(state, -2) == LUA_TSTRING, lua_rawequal(state, -1, 1) != 0 { method = luaString(state, -2) }
                quarry_pop(state, 1)
            }
            quarry_pop(state, 1)
            if let method {
                let found = FunctionHelp.methods.filter { $0.name == method && $0.kind == kind.rawValue }
                return found.isEmpty ? FunctionHelp.methods.filter { $0.name == method } : found
            }
        }
        // A method the prelude writes in Lua (`r.objects`, of sectioned results too): the
        // helper's name is the method's.
        runtime.pushHelpers()
        var helper: String?
        lua_pushnil(state)
        while lua_next(state, -2) != 0 {
            if lua_type(state, -2) == LUA_TSTRING, lua_rawequal(state, -1, 1) != 0 { helper = luaString(state, -2) }
            quarry_pop(state, 1)
        }
        quarry_pop(state, 1)
        return helper.map { name in FunctionHelp.methods.filter { $0.name == name } } ?? []
    }

    /// How `help(v)` names a value with methods: an entity by its name, an object by its ID.
    private static func describedValue(_ runtime: QuarryRuntime, _ call: LuaCall, kind: String) -> String? {
        if let handle = swiftObject(call.state, 1, kind: .entity, as: EntityHandle.self) { return handle.name }
        if let object = swiftObject(call.state, 1, kind: .object, as: ManagedObject.self) { return object.objectID }
        return nil
    }

    /// The name Lua's manual gives the function at argument 1 (`print`, `string.format`)
    /// when it is one of the standard library's, as Tab offers them: globals and the fields
    /// of the library tables.
    private static func luaLibraryName(_ state: OpaquePointer) -> String? {
        guard lua_type(state, 1) == LUA_TFUNCTION else { return nil }
        let top = lua_gettop(state)
        defer { lua_settop(state, top) }
        for library in ["", "string", "table", "math", "os", "io", "utf8", "coroutine"] {
            lua_settop(state, top)
            quarry_pushglobaltable(state)
            if !library.isEmpty {
                guard LuaTable.field(state, -1, library) == LUA_TTABLE else { continue }
            }
            lua_pushnil(state)
            while lua_next(state, -2) != 0 {
                if lua_type(state, -2) == LUA_TSTRING, lua_rawequal(state, -1, 1) != 0 {
                    let name = luaString(state, -2)
                    return library.isEmpty ? name : library + "." + name
                }
                quarry_pop(state, 1)
            }
        }
        return nil
    }

    static func luaTypeof(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        if call.type(1) == LUA_TNONE { throw call.argumentError(1, "value expected") }
        if let kind = userdataKind(call.state, 1) { return call.push(kind) }
        return call.push(String(cString: lua_typename(call.state, call.type(1))))
    }

    /// Dates: compared, subtracted, added to, concatenated and read by field, in UTC. A
    /// date read from a column of days prints as its day (`dateText`); what it computes is
    /// a date like any other.
    static let dateMetamethods: [LuaBinding] = [
        LuaBinding("__tostring") { _, call in call.push(dateText(call.state, 1) ?? Value.iso8601(0)) },
        LuaBinding("__eq") { _, call in call.push(operand(call, 1) == operand(call, 2)) },
        LuaBinding("__lt") { _, call in try compare(call, <) },
        LuaBinding("__le") { _, call in try compare(call, <=) },
        LuaBinding("__sub") { _, call in
            if let a = operand(call, 1), let b = operand(call, 2) {
                lua_pushnumber(call.state, a - b)
                return 1
            }
            if let a = operand(call, 1), let b = number(call, 2) { return try date(call, a - b) }
            throw LuaError(
                "attempt to subtract \(call.typeName(2)) from \(call.typeName(1)) (a date minus a date gives seconds; a date minus seconds gives a date)"
            )
        },
        LuaBinding("__add") { _, call in
            if let a = operand(call, 1), let b = number(call, 2) { return try date(call, a + b) }
            if let a = number(call, 1), let b = operand(call, 2) { return try date(call, a + b) }
            throw LuaError("attempt to add \(call.typeName(1)) and \(call.typeName(2)) (add seconds to a date)")
        },
        LuaBinding("__concat") { _, call in
            func text(_ i: Int32) throws -> String {
                if let d = dateText(call.state, i) { return d }
                if call.type(i) == LUA_TSTRING || call.type(i) == LUA_TNUMBER, let v = luaValue(call.state, i) { return v.displayString }
                throw LuaError("attempt to concatenate a \(call.typeName(i)) value")
            }
            return call.push(try text(1) + text(2))
        },
        LuaBinding("__index") { _, call in
            let key = (try? call.string(2)) ?? ""
            guard let seconds = operand(call, 1) else { return call.pushNil() }
            if key == "timestamp" {
                lua_pushnumber(call.state, seconds)
                return 1
            }
            // Components in UTC, as tostring shows the date; weekday 1 is Sunday, as os.date's wday.
            guard let field = DateComponent(rawValue: key) else {
                throw LuaError("dates have no field '\(key)' (fields: timestamp, \(DateComponent.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard let part = field.value(of: seconds) else { return call.pushNil() }
            return call.push(part)
        }
    ]

    private static func operand(_ call: LuaCall, _ i: Int32) -> Double? { dateValue(call.state, i) }
    private static func number(_ call: LuaCall, _ i: Int32) -> Double? {
        guard call.type(i) == LUA_TNUMBER else { return nil }
        return quarry_tonumber(call.state, i, nil)
    }
    private static func date(_ call: LuaCall, _ seconds: Double) throws -> Int32 {
        guard Value.dateRange.contains(seconds) else { throw LuaError("date arithmetic left the years 0001 to 9999") }
        pushDate(call.state, seconds)
        return 1
    }
    private static func compare(_ call: LuaCall, _ op: (Double, Double) -> Bool) throws -> Int32 {
        guard let a = operand(call, 1), let b = operand(call, 2) else {
            throw LuaError("attempt to compare \(call.typeName(1)) with \(call.typeName(2))")
        }
        return call.push(op(a, b))
    }
}
