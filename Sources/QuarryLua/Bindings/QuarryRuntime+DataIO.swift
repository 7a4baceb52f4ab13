import CLua
import CQuarryShim
import Foundation
import QuarryFetch
import QuarryStore

extension QuarryRuntime {
    func installDataFunctions() {
        register(Self.dataLibrary)
    }

    func installOnceWriter() {
        registerInQuarryTable(Self.onceWriter)
    }

    /// For the prelude only (it takes it out of `quarry` before any script runs).
    static let onceWriter: [LuaBinding] = [
        LuaBinding("__writeonce", QuarryRuntime.luaWriteOnce),
    ]

    /// `.once FILE`: the next printed result goes to FILE through the one writer exports
    /// use (a FIFO or device written as `>` would, a plain file's mode and links kept).
    /// Never under --safe, whoever sets `quarry.__once`.
    func luaWriteOnce(_ call: LuaCall) throws -> Int32 {
        let path = try call.string(1), text = try call.string(2)
        if isSandboxed { throw LuaError(".once: --safe does not write files (export() and .export do)") }
        do {
            let file = try OutputFile(path: path, operation: ".once")
            // A file gets the text without the terminal's colour codes.
            try file.write(console.plain(text))
            try file.commit()
        } catch { throw luaError(error) }
        return 0
    }

    /// `types = { zip = "string", n = "int64" }` of import's options: column names to
    /// attribute types (a trailing `?` is allowed; whether a column may be nil is read
    /// from its cells).
    static func importTypes(_ call: LuaCall, _ index: Int32) throws -> [String: AttributeType] {
        let s = call.state
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, "types") {
        case LUA_TNIL: return [:]
        case LUA_TTABLE: break
        default: throw LuaError("types must be a table of column names to types, got \(call.typeName(-1))", operation: "import")
        }
        let table = lua_gettop(s)
        var types: [String: AttributeType] = [:]
        let (keys, nonString) = LuaTable.stringKeys(s, table)
        if nonString { throw LuaError("types must name its columns (types = { zip = \"string\" })", operation: "import") }
        let names = AttributeType.allCases.map(\.rawValue) + ["int"]
        for key in keys {
            let given = LuaTable.field(s, table, key) == LUA_TSTRING ? luaString(s, -1) : nil
            quarry_pop(s, 1)
            let name = given.map { $0.hasSuffix("?") ? String($0.dropLast()) : $0 } ?? ""
            guard let type = AttributeType(name: name) else {
                throw LuaError("types: '\(key)' must be a type name, got \(given.map { "'\($0)'" } ?? "no string")", operation: "import",
                               suggestion: given.flatMap { closestMatch(to: $0, in: names) }, remedy: "types: " + names.joined(separator: ", "))
            }
            types[key] = type
        }
        return types
    }

    /// A one-line notice on stderr, apart from the data on stdout.
    func writeNotice(_ text: String) {
        console.note(text)
    }

    /// `flights.csv` → `Flights`.
    static func defaultEntityName(for path: String) -> String {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return base.prefix(1).uppercased() + base.dropFirst()
    }

    /// Globals (also fields of `quarry`), registered as lua.c registers a library: name → function.
    static let dataLibrary: [LuaBinding] = [
        LuaBinding("import", QuarryRuntime.luaImport),
        LuaBinding("export", QuarryRuntime.luaExport),
    ]

    // MARK: Bindings

    func luaImport(_ call: LuaCall) throws -> Int32 {
        let path = try call.string(1)
        var entity: String?
        var types: [String: AttributeType] = [:]
        if !call.isNoneOrNil(2) {
            try call.table(2)
            try Self.checkOptions(call, 2, allowed: ["entity", "types"], operation: "import")
            if LuaTable.field(call.state, 2, "entity") == LUA_TSTRING { entity = luaString(call.state, -1) }
            quarry_pop(call.state, 1)
            types = try Self.importTypes(call, 2)
        }
        let name = entity ?? Self.defaultEntityName(for: path)
        let console = self.console
        let showProgress = console.showsProgress
        let summary: ImportSummary
        var progressShown = false
        do {
            summary = try self.context.importFile(path, into: name, types: types) { done, total in
                guard showProgress, total > 0 else { return }
                console.progress("import \((path as NSString).lastPathComponent): \(done)/\(total) rows")
                if done == total { console.progress(nil) }
                progressShown = done != total
            }
        } catch {
            // Ctrl-C or an error halfway: the progress line goes before the message does.
            if progressShown { console.progress(nil) }
            throw luaError(error)
        }
        if summary.createdEntity { self.bindEntityGlobals() }
        return call.push(summary.rows)
    }

    func luaExport(_ call: LuaCall) throws -> Int32 {
        if self.isModelExport(call) { return try self.exportModel(call) }
        // export(x, path) takes no options: a table after the path is a mistake, not ignored.
        if call.argumentCount > 2, !call.isNoneOrNil(3) {
            throw call.argumentError(3, "export takes no options; the path's suffix chooses the format (.csv, .tsv, .json; \"-\" is standard output as CSV)")
        }
        // Dictionary rows (sql(), summarize(), group/having) export as results do.
        if call.type(1) == LUA_TTABLE, let rows = self.dictionaryRows(call, 1) {
            let path = try call.string(2)
            do { return call.push(try exportRows(QueryRows(columns: rows.columns, rows: rows.rows), to: path)) } catch { throw luaError(error) }
        }
        if call.type(1) == LUA_TTABLE { throw call.typeError(1, expected: "results or a list of records") }
        let handle = try self.results(call, 1)
        let path = try call.string(2)
        do { return call.push(try handle.results.export(to: path)) } catch { throw luaError(error) }
    }
}
