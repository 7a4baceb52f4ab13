import CLua
import CQuarryShim
import Foundation
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryStore

/// The Lua side of import(), export() and the `.once` writer: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum DataBindings {
    /// For the prelude only (it takes it out of `quarry` before any script runs).
    static let onceWriter: [LuaBinding] = [
        LuaBinding("__writeonce", luaWriteOnce),
        LuaBinding("__filing", luaFiling)
    ]

    /// `__filing(true)` while the prelude's show renders a result for `.once FILE`, so it is
    /// laid out as a file takes it (`QuarryRuntime.tableFormat`); `__filing(false)` after.
    static func luaFiling(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        runtime.rendersForFile = lua_toboolean(call.state, 1) != 0
        return 0
    }

    /// `.once FILE`: the next printed result goes to FILE through the one writer exports
    /// use (a FIFO or device written as `>` would, a plain file's mode and links kept).
    /// Never under --safe, whoever sets `quarry.__once`.
    static func luaWriteOnce(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let path = try call.string(1)
        let text = try call.string(2)
        if runtime.isSandboxed { throw LuaError(".once: --safe does not write files (export() and .export do)") }
        do {
            let file = try OutputFile(path: path, operation: ".once")
            // A file gets the text without the terminal's colour codes.
            try file.write(runtime.console.plain(text))
            try file.commit()
        } catch { throw luaError(error) }
        // Said, as `.export` says what it wrote: the result went to the file, not lost.
        let chosen = runtime.onceMode.map { " as \($0.rawValue), for its name (.mode sets another)" } ?? ""
        runtime.onceMode = nil
        runtime.writeNotice("written to \(path)" + chosen)
        return 0
    }

    /// Globals, also fields of `quarry`.
    static let dataLibrary: [LuaBinding] = [
        LuaBinding("import", luaImport),
        LuaBinding("export", luaExportSayingReplaced)
    ]

    static func luaImport(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let path = try call.string(1)
        var entity: String?
        var types: [String: AttributeType] = [:]
        var nulls = ["", "NA"]
        var separator: UInt8?
        var header: Bool?
        // `import("nl.csv", "nl_city")` names the entity as `.import FILE ENTITY` does; the
        // options may follow the name.
        var options: Int32 = 2
        if call.type(2) == LUA_TSTRING {
            entity = luaString(call.state, 2)
            options = 3
        }
        if !call.isNoneOrNil(options) {
            guard call.type(options) == LUA_TTABLE else {
                throw call.typeError(options, expected: options == 2 ? "entity name or options table" : "options table")
            }
            try QuarryRuntime.checkOptions(call, options, allowed: ["entity", "types", "nulls", "separator", "header"], operation: "import")
            if LuaTable.field(call.state, options, "entity") == LUA_TSTRING {
                let named = luaString(call.state, -1)
                if let entity, entity != named {
                    quarry_pop(call.state, 1)
                    throw call.argumentError(options, "entity = \"\(named)\" names another entity than argument #2 (\"\(entity)\"); give one")
                }
                entity = named
            }
            quarry_pop(call.state, 1)
            types = try QuarryRuntime.importTypes(call, options)
            nulls = try QuarryRuntime.importNulls(call, options) ?? nulls
            separator = try QuarryRuntime.importSeparator(call, options)
            header = try QuarryRuntime.importHeader(call, options)
        }
        let name = entity ?? QuarryRuntime.defaultEntityName(for: path)
        let console = runtime.console
        let showProgress = console.showsProgress
        // Rows already there stay, as sqlite3's .import appends: said at a terminal when
        // there were some (trial 32 imported a file twice and counted 1,000 of 500). The
        // rows the table holds: an unsaved insert is not one of them.
        var rowsBefore = 0
        if showProgress, runtime.context.entities.contains(where: { $0.name == name }) {
            var held = FetchRequest(entityName: name)
            held.includesPendingChanges = false
            rowsBefore = (try? held.count(in: runtime.context)) ?? 0
        }
        let summary: ImportSummary
        var progressShown = false
        do {
            summary = try ImportRequest(path, into: name, types: types, nulls: nulls, separator: separator, header: header).execute(
                in: runtime.context
            ) {
                done, total in
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
        if summary.createdEntity || summary.foundEntity { runtime.bindEntityGlobals() }
        // An entity named from the file (`reads.csv` → `Reads`) is said, with how to name
        // another, on a terminal (where progress shows): a script's output stays its own.
        if entity == nil, showProgress {
            let file = (path as NSString).lastPathComponent
            let quoted = LuaLiteral.string(path)
            let made = summary.createdEntity ? "made the entity \(name)" : "rows added to the entity \(name)"
            runtime.writeNotice(
                "import \(file): \(made), named after the file (import(\(quoted), { entity = \"Name\" }) chooses another)")
        }
        // A header that another separator splits, read as one column: said, with the
        // option that reads it the other way.
        if let doubt = summary.separatorDoubt { runtime.writeNotice("import \((path as NSString).lastPathComponent): \(doubt)") }
        // A first record read as a row (a file without a header): said, with the option
        // that reads it as the names.
        if let data = summary.firstRowIsData {
            runtime.writeNotice(QuarryRuntime.firstRowNote(data, path: path, into: summary.createdEntity ? nil : name))
        }
        // Columns a header left unnamed (`,name,score`, `userId,rating,,`) are said with
        // the names they got, as the first row read as data is.
        if !summary.unnamedColumns.isEmpty {
            runtime.writeNotice(QuarryRuntime.unnamedColumnsNote(summary.unnamedColumns, path: path))
        }
        // Cells that became nil are said, per column, so a text such as `NA` (Namibia's
        // code) is not lost without a word.
        if !summary.nilCells.isEmpty {
            let counts = summary.nilCells.map { "\($0.column) \($0.count)" }.joined(separator: ", ")
            let spelled = nulls.map { "\"\($0)\"" }.joined(separator: ", ")
            runtime.writeNotice("import \((path as NSString).lastPathComponent): cells read as nil (nulls = { \(spelled) }): \(counts)")
        }
        // A column made text by a few quoted numbers sorts and compares as text: said,
        // with the option that reads them as numbers.
        for quoted in summary.quotedColumns {
            let cells = quoted.count == 1 ? "1 quoted field spells" : "\(quoted.count) quoted fields spell"
            let type = quoted.unquotedType.rawValue
            let option = "types = { \(quoted.column) = \"\(type)\" }"
            runtime.writeNotice(
                "import \((path as NSString).lastPathComponent): column \(quoted.column) is text: \(cells) a \(type)"
                    + " (a quoted field is text, as export writes it); \(option) reads it as \(type)")
        }
        // A column made text by a few cells of another kind (`n/a` among numbers): the
        // first such cell by line, and how many, so the row can be fixed or its text read as nil.
        for text in summary.textColumns {
            runtime.writeNotice(QuarryRuntime.textColumnNote(text, path: path, nulls: nulls))
        }
        // A new column of dates import does not read (`10/13/1998`) is text: said.
        if summary.createdEntity { runtime.noteImportedTextDates(name, path: path) }
        if rowsBefore > 0, !summary.createdEntity {
            runtime.writeNotice(
                "import \((path as NSString).lastPathComponent): \(grouped(summary.rows)) rows added to the \(grouped(rowsBefore)) \(name) held "
                    + "(\(grouped(rowsBefore + summary.rows)) now); rows already there stay, as sqlite3's .import leaves them")
        }
        // A file another program made has changed: said, with the table and the rows.
        if ForeignFileNotes.isForeignFile(runtime.context) {
            runtime.writeNotice(ForeignFileNotes.imported(summary, into: name, path: path, file: runtime.context.path ?? ""))
        }
        return call.push(summary.rows)
    }

    static func luaExport(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        if runtime.isModelExport(call) { return try runtime.exportModel(call) }
        // export(x, path) takes no options: a table after the path is a mistake, not ignored.
        if call.argumentCount > 2, !call.isNoneOrNil(3) {
            throw call.argumentError(
                3, "export takes no options; the path's suffix chooses the format (.csv, .tsv, .json; \"-\" is standard output as CSV)")
        }
        // A query: { sql = "SELECT ...", args = { ... } }, streamed to the file.
        if call.type(1) == LUA_TTABLE, !isQuarryRows(call.state, 1) {
            let named = LuaTable.field(call.state, 1, "sql") != LUA_TNIL
            quarry_pop(call.state, 1)
            if named { return try exportQuery(runtime, call) }
        }
        // Dictionary rows (sql(), summarize(), group/having) export as results do.
        if call.type(1) == LUA_TTABLE, let rows = runtime.dictionaryRows(call, 1) {
            let path = try call.string(2)
            do { return call.push(try exportRows(QueryRows(columns: rows.columns, rows: rows.rows), to: path)) } catch { throw luaError(error) }
        }
        if call.type(1) == LUA_TTABLE { throw call.typeError(1, expected: "results or a list of records") }
        // export("albums", "albums.csv"), as summarize("albums") takes a name: the call that works.
        if call.type(1) == LUA_TSTRING, let entity = try? runtime.context.entity(named: luaString(call.state, 1)) {
            let path = call.type(2) == LUA_TSTRING ? luaString(call.state, 2) : "\(entity.name).csv"
            throw call.argumentError(
                1,
                "results expected, got the entity name \(LuaLiteral.string(entity.name)): "
                    + "export(fetch(\(LuaLiteral.string(entity.name))), \(LuaLiteral.string(path))) writes its rows")
        }
        let handle = try runtime.results(call, 1)
        let path = try call.string(2)
        let written: Int
        do { written = try handle.results.export(to: path) } catch { throw luaError(error) }
        runtime.noteUnsavedChangesExported(handle.results.request)
        return call.push(written)
    }

    /// `export({ sql = "SELECT ...", args = { ... } }, path)`: the statement checked as
    /// `sql()` checks it and its rows written as they come, the same file as
    /// `export(sql(...), path)` writes (`ReadOnlyQuery.export`).
    static func exportQuery(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let s = call.state
        try QuarryRuntime.checkOptions(call, 1, allowed: ["sql", "args"], operation: "export")
        guard LuaTable.field(s, 1, "sql") == LUA_TSTRING else {
            let given = call.typeName(-1)
            quarry_pop(s, 1)
            throw OptionError("sql", mustBe: "a string (a SELECT statement)", got: given, operation: "export")
        }
        let text = luaString(s, -1)
        quarry_pop(s, 1)
        var arguments: [Value] = []
        switch LuaTable.field(s, 1, "args") {
        case LUA_TNIL: break
        case LUA_TTABLE:
            do {
                arguments = try LuaTable.array(s, lua_gettop(s)) { i in
                    guard let value = luaValue(s, -1) else {
                        throw OptionError("args[\(i)]", mustBe: "a string, number, boolean, date or nil", operation: "export")
                    }
                    return value
                }
            } catch {
                quarry_pop(s, 1)
                throw error
            }
        default:
            let given = call.typeName(-1)
            quarry_pop(s, 1)
            throw OptionError("args", mustBe: "a table", got: given, operation: "export")
        }
        quarry_pop(s, 1)
        let path = try call.string(2)
        do {
            let written = try ReadOnlyQuery(text, arguments: arguments).export(in: runtime.context, to: path)
            runtime.noteUnsavedChangesOutsideSQL("export{ sql = }")
            return call.push(written)
        } catch let error as StoreError where error.operation == nil {
            // SQLite's own words ("near "SELEC": syntax error") say which call failed.
            throw luaError(StoreError.during(operation: "export", error))
        } catch {
            throw luaError(error)
        }
    }
}
