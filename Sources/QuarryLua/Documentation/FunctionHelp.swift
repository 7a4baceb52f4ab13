/// The reference for Quarry's Lua functions: `help(fetch)` prints from it, and
/// `docs/lua-api.md` is generated from it (a test keeps the two equal and runs every
/// example).
public struct FunctionHelp: Sendable {
    public let name: String
    public let usage: String
    public let summary: String
    /// Lua written as a person uses the function, which runs on a store holding the entity
    /// `Item` (title, n, when) with three objects (a test runs every one).
    public let example: String
    /// For a method, the kind of value it is called on (`entity`, `object`, `results`,
    /// `set`, `predicate`, `observer`, ... as `typeof` names them); nil for a function.
    public var kind: String? = nil

    /// Whether the entry says a kind's fields rather than a method (a section's: `r[i].id`),
    /// named after its kind: the contract reads sections as `r[i]`, and no `:section()`
    /// method exists for a listing of `section:section` to send people to.
    var isFields: Bool { kind == name }

    /// How `help()` and docs/lua-api.md list the entry: `results:configure`, or a kind's
    /// fields by what reads them, `r[i] (a section)`.
    public var listedName: String { isFields ? "r[i] (a \(name))" : "\(kind ?? ""):\(name)" }

    /// How `help()` and docs/lua-api.md name a function: as it is called, `quarry.show` for
    /// one that is a field of `quarry` and no global (its usage says so).
    public var calledName: String { kind == nil && usage.hasPrefix("quarry.\(name)(") ? "quarry.\(name)" : name }

    public static let all: [FunctionHelp] = [
        FunctionHelp(
            name: "help", usage: #"help(fn) | help("name") | help("Item:updateall") | help()"#,
            summary:
                "Prints the usage of a function or a method, what it does and an example, wrapped to the terminal, and returns nothing (at the prompt and in scripts alike); help() lists every function and method that has help. A method by name (help(\"updateall\"), help(\"r:configure\")) or by value (help(Item.updateall), help(r.objects)); Lua's own functions (help(print), help(string.format)) by where Lua's manual describes them. A value with methods (help(Item), help(o), help(r)) lists them. At the prompt, .help fetch prints the same as help(fetch).",
            example: #"help(fetch); help("Item:updateall")"#),
        FunctionHelp(
            name: "entity", usage: #"entity "Name" { key = "type", ... }"#,
            summary:
                "Creates the entity or migrates it in place, keeping every row; binds a global handle of the same name. Attribute options: default, indexed, unique, optional, renamedFrom (the old name: the column is renamed, values kept). Entity options, in a table before the definition: parent, abstract, uniqueness, drop. An attribute left out is dropped with its column, except on a table of a file Quarry did not make, which keeps its key, its columns' types and its foreign keys' relationships: there a column goes only when drop names it (entity(\"director\", { drop = { \"notes\" } }) { ... }), and what .schema printed for it changes nothing.",
            example: #"entity "Note" { text = "string", stars = { "int16", default = 0 } }"#),
        FunctionHelp(
            name: "entities", usage: "entities()", summary: "The entity handles, in the order they were defined.",
            example: "for _, e in ipairs(entities()) do print(e.name) end"),
        FunctionHelp(
            name: "fetch",
            usage:
                #"fetch("Entity", "predicate", args...) | fetch{ "Entity" [, "predicate", args...], predicate =, args =, sort =, limit =, offset =, batch =, section =, result =, properties =, group =, having =, distinct =, prefetch = }"#,
            summary:
                #"Runs a fetch request in SQLite and returns live results (or ids, a count, dictionaries). In the table form the predicate and its arguments may follow the entity, as in the call form, or be named (predicate =, args =). result = "dictionaries" with properties = { "carrier", "count(*)", "sum(price * qty) AS revenue" } returns plain rows; group = { keys } groups them, having = "count > 10" keeps the groups that match (a key of the row or an aggregate as written), distinct = true gives each row once (SELECT DISTINCT). A key named as a predicate word (first, last, size) needs # in a predicate (#size > 10) but not in sort, properties, group or an aggregate (sort = "-first", sum(size / 1048576)), where #size is taken too. A date's parts are keys there and in predicates, in UTC: t.year, t.month, t.day, t.hour, t.weekday (1 is Sunday), t.date (the day, a date); t2 - t1 is seconds."#,
            example: #"local r = fetch{ "Item", predicate = "n > %@", args = { 1 }, sort = { "-n" }, limit = 10 }"#),
        FunctionHelp(
            name: "count", usage: #"count("Entity", "predicate", args...) | count{ "Entity", ... }"#,
            summary:
                "How many objects match, counted by SQLite. The table form takes fetch{}'s keys; with properties, group or distinct it counts the rows fetch{} would give, one per group or distinct row (SELECT count(*) of them).",
            example: #"count("Item", "title BEGINSWITH %@", "t")"#),
        FunctionHelp(
            name: "save", usage: #"save() | save{ author =, merge = "store" | "mine" }"#,
            summary:
                "Writes every pending change in one transaction; returns { inserted =, updated =, deleted = }. updated counts the objects .changes lists as updated: those whose values changed, and a many-to-many link's two ends (observers and history also have a to-one's old and new owners, whose rows are not written).",
            example: #"Item:new{ title = "t4", n = 4 }; save()"#),
        FunctionHelp(
            name: "rollback", usage: "rollback()",
            summary:
                "Discards every pending change; observers hear what went back. Returns nothing; at an interactive prompt it says what it dropped (rolled back 3 pending changes (1 inserted, 1 updated, 1 deleted), or nothing to roll back), as .changes counts them.",
            example: #"Item:new{ title = "gone", n = 0 }; rollback()"#),
        FunctionHelp(
            name: "haschanges", usage: "haschanges()", summary: "True while changes are pending.",
            example: #"if haschanges() then save() end"#),
        FunctionHelp(
            name: "date", usage: "date(iso8601 | unixSeconds)", summary: "A date; dates compare, subtract to seconds and add seconds.",
            example: #"local d = date("2024-01-22T16:26:12Z") + 60; print(d.year, d.month, d.day)"#),
        FunctionHelp(
            name: "decimal", usage: "decimal(text | number)",
            summary: "An exact decimal, as PostgreSQL's numeric columns give; decimals add, subtract, multiply, divide and compare exactly.",
            example: #"print(decimal("0.10") + decimal("0.20"))"#),
        FunctionHelp(name: "now", usage: "now()", summary: "The current date.", example: #"fetch("Item", "when < %@", now() - 86400)"#),
        FunctionHelp(
            name: "typeof", usage: "typeof(v)", summary: "Quarry's kind of a value (object, results, section, entity, date, ...), else type(v).",
            example: "print(typeof(Item), typeof(Item:first()), typeof(now()))"),
        FunctionHelp(
            name: "predicate", usage: ##"predicate("format", args...) | predicate("#Predicate<Item> { $0.n > least }", { least = 2 })"##,
            summary:
                "A predicate to test objects in memory (p:matches(o)), print, or turn into Swift (p:swift(\"Item\")); a Swift #Predicate is read too, wherever a format goes.",
            example: #"local p = predicate("n >= %@", 2); print(p:matches(Item:first()))"#),
        FunctionHelp(
            name: "explain", usage: "explain(results | rows)",
            summary: "The SQL, its bound arguments and SQLite's query plan, of results or of dictionary rows (properties, group).",
            example: #"print(explain(fetch("Item", "n > 1")))"#),
        FunctionHelp(
            name: "swift",
            usage: #"swift(results | rows [, "fetchrequest" | "sectioned" | "query" | "descriptor" | "nsfetchrequest"]) | r:swift(style)"#,
            summary:
                "The Swift for the request that made results or dictionary rows; a part the style cannot say is named on a '// not expressed:' line.",
            example: #"print(swift(fetch{ "Item", sort = { "-n" }, limit = 2 }, "descriptor"))"#),
        FunctionHelp(
            name: "observe", usage: "observe(results | object, {keys} | \"Entity\", fn [, { namespace = ns }])",
            summary: "Calls fn after each save that changes what it watches; returns a handle with :cancel().",
            example:
                #"local h = observe("Item", function(ch) print(#ch.inserted, #ch.updated, #ch.deleted) end)"#
        ),
        FunctionHelp(
            name: "bind", usage: #"bind(object, "key")"#,
            summary: "A binding: b.value reads and writes the attribute, b:observe(fn) hears its changes.",
            example: #"local b = bind(Item:first(), "title"); b:observe(function(new, old) print(old, "->", new) end)"#),
        FunctionHelp(
            name: "state", usage: "state(v)", summary: "A reactive value: s.value, and s:observe(fn(new, old)).",
            example: #"local least = state(1); local r = fetch("Item", "n >= %@", 1); least:observe(function(v) r.args = { v } end); least.value = 2"#
        ),
        FunctionHelp(
            name: "namespace", usage: "namespace()", summary: "Groups observers: ns:cancel() ends them all.",
            example: #"local ns = namespace(); observe("Item", function() end, { namespace = ns }); ns:cancel()"#),
        FunctionHelp(
            name: "history", usage: "history{ since = token, author = name } | history.prune(token)",
            summary:
                "The transactions saves recorded, oldest first. A file Quarry did not make keeps none: there the list is empty, and a note says so once.",
            example: "for _, t in ipairs(history{ since = 0 }) do print(t.token, t.author) end"),
        FunctionHelp(
            name: "historytoken", usage: "historytoken()", summary: "The token of the latest transaction.",
            example: "local since = historytoken()"),
        FunctionHelp(
            name: "refresh", usage: "refresh() | refresh(o) | o:refresh()",
            summary:
                "Notices changes committed by other processes (observers hear them); with an object, drops its unsaved changes and reads its row again.",
            example: "refresh()"),
        FunctionHelp(
            name: "import",
            usage:
                #"import("file.csv" | "file.json" [, "Entity"] [, { entity = "Name", nulls = { "", "NA" }, separator = ";", header = false, types = { zip = "string" } }])"#,
            summary:
                "Imports a CSV or JSON array of objects into the entity named by the second argument or entity (else after the file), creating it; unquoted fields in nulls are nil (said per column); returns the row count. A CSV file's separator (comma, semicolon, tab or pipe) is found from its first records unless separator names it; a .tsv or .tab path reads tabs; a file read as one column though another separator splits its header says so in a note. The first record names the columns unless it reads as data (in each column of numbers, booleans or dates below, its field is one too): then it is a row, the columns are named column1, column2, … (into an existing entity, its attributes in their declared order, as sqlite3's .import fills a table: the counts must agree), and a note says so; header = false or true decides it. A header's empty field (pandas' index column, a sheet's trailing commas) names its column by its place (column3), and a note says so. Each column's type is inferred (integers, doubles, booleans, ISO 8601 dates, else strings); types = { column = \"type\" } decides it instead (a column of digits with leading zeros keeps its text unless types says otherwise). A new column that a few cells made text (n/a among numbers) is said in a note naming the first by line, and so is one of dates written otherwise than ISO 8601 (10/13/1998), which stays text. The rows are written and committed at once, as sqlite3's .import commits them: rollback() does not take them back, and changes pending before stay pending (save() or rollback() them as ever). A failure (a bad row, Ctrl-C) leaves the table and the store as they were.",
            example: #"import("people.csv", { entity = "Person", nulls = { "", "NA" } })"#),
        FunctionHelp(
            name: "export", usage: #"export(results | { sql = "SELECT ...", args = { ... } }, "out.csv" | "out.tsv" | "out.json" | "-")"#,
            summary:
                "Writes results, or a read-only query's rows as they come, to a file; returns the count. The path's suffix chooses the format (.csv, .tsv or .tab, .json); a path without one, or \"-\" (standard output), gets CSV, and any other suffix is refused. Results are written as they hold, unsaved changes included (includesPending = false leaves them out): at the prompt a note says when the rows written hold changes the store does not. At an interactive prompt the export says what it wrote (wrote 3 rows to out.csv); a file already there is replaced, and it says so (wrote 3 rows to out.csv (replaced the file that was there)).",
            example: #"export(fetch("Item", "n > 1"), "items.csv")"#),
        FunctionHelp(
            name: "relate", usage: #"relate("Entity", "column" | { "a", "b" }, "Destination", "column" | { "a", "b" } [, "name" [, "inverse"]])"#,
            summary:
                "A to-one relationship through matching columns, named by its column or its target in the singular, with its inverse to-many named by the entity in the plural (flights; the earlier flight_set still reads), as foreign keys are named; returns both names, and notes how many rows name no row of the destination (8 of 20 rows of orders name no customer). The destination's columns must name one row (its key, or values each in one row): lists of columns for a key of several. It is kept at once, as entity() is (in the sidecar <file>.quarry of a file Quarry did not make): rollback() does not take it back, and the same relate() again changes nothing. On such a file it is what a foreign key with no action is: deleting an object that others name through it is refused, naming them, and their column is never cleared.",
            example: #"entity "Owner" { title = "string" }; relate("Item", "title", "Owner", "title")"#),
        FunctionHelp(
            name: "format", usage: #"format("Entity", "column" [, "format" [, { never = 0 }]])"#,
            summary:
                "How Quarry writes a column of a file it did not create (iso-space, iso-t, iso-date, an ISO example such as 2021-01-01T00:00:00Z or the basic 20210101 and 20210101T000000, unix, unix-real, unix-ms, julian, 0/1, Y/N, true/false, uuid, UUID, uuid-compact, uuid-blob, plain): declares it, kept in the file's sidecar; returns it (nil for Quarry's own stores; nil and why for a column whose values show no one format). A time layout (unix, unix-real, unix-ms, unix-us, unix-ns, cocoa, cocoa-ns, webkit, filetime, julian) makes a number column a date (a PostgreSQL table's too, for the session), refused naming the unit that fits when it reads the column's numbers outside the years 0001-9999 or far from today; never = n reads the number n as nil. A text layout counts the column's values it reads as no date: a note gives how many, with one and its row (they stay text, which no date comparison takes, and are not nil), refused when most are. Asked with two arguments, an ISO layout answers by its name (iso-space). Under --readonly the sidecar is not written: the declaration lasts the session, and a note says so.",
            example: #"format("Item", "when")"#),
        FunctionHelp(
            name: "model", usage: #"model("App.xcdatamodeld" | "App.xcdatamodel" | "App.momd" | "App.mom")"#,
            summary:
                "Defines every entity of a Core Data model in the open store, as entity would (attributes, relationships and their inverses, inheritance, uniqueness); returns the entity handles. export(entities(), \"Model.xcdatamodel\") writes one that model() loads back.",
            example: #"model("App.xcdatamodeld")"#),
        FunctionHelp(
            name: "open", usage: #"open("other.sqlite" [, { readonly = true, model = "App.momd" }])"#,
            summary:
                "Opens another store beside the session's (any location quarry opens: a Quarry file, another program's SQLite file, a Core Data or SwiftData store, a postgres:// URL) and returns its handle b. Its entities are b.Item, with every entity method (b.Item:fetch(), :first, :new, :get, :count); fetch, count, save, rollback, haschanges, refresh, sql, export, import, watch, observe, summarize, entities, entity, relate, format and historytoken take b first and work on it (fetch(b, \"Item\"), save(b)). Each store keeps its own unsaved changes, saves and observers; the session's store stays the one used without b. Under --readonly b is read-only; under --safe no new file is made. Objects of two stores are never related: copy them (b.Item:new(o), copy()).",
            example:
                #"local b = open(":memory:"); entity(b, "Note", { text = "string" }); b.Note:new{ text = "hi" }; save(b); print(count(b, "Note"))"#),
        FunctionHelp(
            name: "stores", usage: "stores()", summary: "The open stores' handles, the session's own first, then those open() opened, in order.",
            example: "for _, s in ipairs(stores()) do print(s) end"),
        FunctionHelp(
            name: "copy", usage: #"copy(results | objects | o, b [, "Entity"])"#,
            summary:
                "Copies objects (of any store) into store b as new objects of the entity of the same name (or the one named): the attributes both entities have by name and type (integers of any width alike), and the relationships whose targets are copied in the same call, linked to their copies. Returns the copies and a list of what was left out (Entity.key and why), which a note also says; written by save(b). b.Item:new(o) copies one object.",
            example:
                #"local b = open(":memory:"); entity(b, "Item", { title = "string" }); local copies, left = copy(fetch("Item"), b); save(b); print(#copies, left[1])"#
        ),
        FunctionHelp(
            name: "sql", usage: #"sql("SELECT ...", args...)"#,
            summary:
                "Runs one read-only SQL statement on the store, ? bound to args in order; returns dictionary rows, printed as a table (a name two columns share is made distinct as SQLite names a view's columns: id, id:1). A statement that would write is refused; watch() takes the rows and runs the query again at each change. It reads the saved store: unsaved changes are not in its rows (at the prompt a note says how many; save() first).",
            example: #"local rows = sql("SELECT title, count(*) AS c FROM Item WHERE n > ? GROUP BY title", 1)"#),
        FunctionHelp(
            name: "diff",
            usage:
                #"diff("App.xcdatamodeld") | diff(b [, options]) | diff(a, b [, { by = { Item = "uuid" }, tolerance = { price = 0.005 }, entities = { "Item" } }])"#,
            summary:
                #"What changed from a to b, as rows marked + (only in b), - (only in a) and ~ (changed), printed as a table under a line naming both sides and what the marks mean there, counted with #, exported as any rows. Each side is nil (this store), a store open() opened (diff(b): this store against b; diff(b, { by = ... }) with options), a model (a .xcdatamodeld, one version's .xcdatamodel, a .momd or .mom, or a Core Data store carrying one), an entity, or results (the objects they select, in their own store: diff(Item, b.Item)). A store against a model, or two models, lists what a migration changes (entities, attributes and relationships added, removed or renamed by their renaming identifiers; type, optional, default, kind, inverse, delete rule) and whether Core Data's lightweight migration infers it (lightweight, with a note saying why not). Two stores, entities or results compare objects: the models first (relationships relate() keeps and formats format() declares beside a file, in its sidecar, are no difference), then each object inserted or deleted with its values (name = value), and each changed attribute (old and new as stored: a decimal exactly, text byte for byte), to-one target and many-to-many member and ordered to-many move. Objects are matched by their object ID (Z_PK in a Core Data store), another program's table by its primary key, or by the keys by names; an entity with no such key is refused, naming the by that fixes it. tolerance: numbers this close are equal. Both sides are read in key order a chunk at a time, never a whole table."#,
            example: #"local d = diff(Item, Item); print(#d)"#),
        FunctionHelp(
            name: "summarize", usage: #"summarize(results | "Entity" [, { exact = true }])"#,
            summary:
                "One row per attribute: column, type, count, nulls, distinct, min, max, and for numbers mean, stddev, q25, q50, q75; computed in SQLite. Estimates on large inputs are marked ~ in the printed header; exact = true counts every value. Text in a number or date column (a SQLite file's INTEGER column may hold '' or 'n/a') is no number: it is in count and distinct, left out of min, max, mean, stddev and the quartiles, and counted in a text column after nulls, which the rows have when some column holds such text (a note names the columns). Results with a limit or an offset are summarised over the rows they hold (sorted and limited in SQLite). The saved rows are read: at the prompt a note says when unsaved changes are not in them.",
            example: #"summarize(fetch("Item", "n > 0"))"#),
        FunctionHelp(
            name: "histogram", usage: #"histogram(results | rows, "key" [, { bins = n }])"#,
            summary:
                "A histogram of a numeric key drawn with text, as a string (the REPL prints it), of the objects results hold (with their limit and offset) or of an entity's. Nil, infinite and NaN values, and cells of text in a number column (a SQLite file's ''), are in no bin: a line under the chart counts them.",
            example: #"print(histogram(fetch("Item"), "n", { bins = 3 }))"#),
        FunctionHelp(
            name: "barchart", usage: #"barchart(rows | r, "labelKey", "valueKey") | barchart(r, "key")"#,
            summary:
                "A bar per row of dictionary rows (fetch{ ..., result = \"dictionaries\" } or sql()), or per object of results (read in the store, in their order), labelled by one key and as long as another, drawn with text, as a string; rows of two keys need none named (the first labels, the second is drawn). Given results or an entity's name and one key, a bar per value of the key, as long as how many objects hold it (counted in the store, among the objects results hold with their limit and offset). Bars of counts, and of grouped rows without a sort, go longest first; other rows keep their order.",
            example: #"print(barchart(sql("SELECT title, n FROM Item"), "title", "n"))"#),
        FunctionHelp(
            name: "linechart", usage: #"linechart(rows | r, "xKey", "yKey")"#,
            summary:
                "A line of one key of dictionary rows (fetch{ ..., result = \"dictionaries\" } or sql()), or of the objects of results (read in the store), against another, drawn with text, as a string; rows of two keys need none named (the first is x, the second y). Numbers and dates on the x axis are placed by value; text (a month as '2024-03') one row a step, in the rows' order.",
            example: #"print(linechart(sql("SELECT n, n * n AS square FROM Item ORDER BY n"), "n", "square"))"#),
        FunctionHelp(
            name: "watch", usage: "watch(results | dictionary results | sql() rows [, { marks = seconds }])",
            summary:
                "In the REPL, shows the results as a table and redraws it in place whenever they change (a save here, a reconfiguration, another process's commit), until Ctrl-C or q; keys 1-9 sort by a column, r reverses, n and p page. Changed rows are marked for a few seconds.",
            example: #"watch(fetch{ "Item", sort = "-n" })"#),
        FunctionHelp(
            name: "show", usage: "quarry.show(v, ...)",
            summary:
                "Prints values as the REPL prints a line's values: results, objects and rows as tables (through the pager when long), anything else as Lua source; _ holds the first.",
            example: #"quarry.show(fetch("Item", "n > 1"), count("Item"))"#),
        FunctionHelp(
            name: "repr", usage: "quarry.repr(v)",
            summary: "A value as Lua source writes it (a table as its constructor, keys sorted), as the REPL shows one; a string as it is.",
            example: #"print(quarry.repr({ 1, "a", x = 2.5 }))"#)
    ]

    /// `name`'s help: a function's, else a method's (`updateall`, `Item:updateall`,
    /// `r:configure`), every method of that name when several kinds have one.
    public static func named(_ name: String) -> FunctionHelp? { all.first { $0.name == name } }

    /// The help `text` asks for: a function named so (`sql`), or methods (`updateall`,
    /// `Item:updateall`, `r.configure`); a name both a function and methods have (`count`,
    /// `swift`) gives all of them, the function first.
    public static func lookup(_ written: String) -> [FunctionHelp] {
        // `help("quarry.show")`: a function called through `quarry` by its name there.
        let text = written.hasPrefix("quarry.") ? String(written.dropFirst("quarry.".count)) : written
        let separator = text.lastIndex { $0 == ":" || $0 == "." }
        let name = separator.map { String(text[text.index(after: $0)...]) } ?? text
        let function = separator == nil ? all.filter { $0.name == name } : []
        // A request's key (`help("group")`) after what a function or method of that name
        // says (`predicate`, `section`, `count` stay first).
        let option = separator == nil ? options.filter { $0.name == name } : []
        return function + methods.filter { $0.name == name } + option
    }

    /// The text `help(fn)` prints, its lines wrapped to `width` columns (0: 80), as a
    /// terminal shows it; the usage and the example are never broken.
    public func text(width: Int) -> String {
        let columns = width > 20 ? width : 80
        return (usageLines(width: width) + FunctionHelp.wrapped(summary, width: columns - 2).map { "  " + $0 } + ["  example: " + example])
            .joined(separator: "\n")
    }

    /// The usage on one line; on a terminal narrower than it (`fetch{ ... }`'s), broken at
    /// spaces with the rest indented, so no word is cut at the edge.
    func usageLines(width: Int) -> [String] {
        guard width > 20, usage.count > width else { return [usage] }
        let lines = FunctionHelp.wrapped(usage, width: width - 4)
        return [lines[0]] + lines.dropFirst().map { "    " + $0 }
    }

    /// A kind's methods, as `help(v)` lists them for a value that is no function (an
    /// entity handle, an object, results): each one's usage and what it does.
    public static func methodList(of kind: String, named name: String?, width: Int) -> String? {
        let entries = methods.filter { $0.kind == kind }
        guard !entries.isEmpty else { return nil }
        let columns = width > 20 ? width : 80
        let article = kind == "entity" || kind == "object" ? "an" : "a"
        // A section has fields and no methods: said so, not as methods to call with `:`.
        let fields = entries.allSatisfy(\.isFields)
        let what = fields ? "its fields (no methods):" : "its methods:"
        var lines = [name.map { "\($0) is \(article) \(kind); \(what)" } ?? "a value of kind \(kind) (as typeof says); \(what)"]
        for entry in entries {
            lines += entry.usageLines(width: width) + FunctionHelp.wrapped(entry.summary, width: columns - 4).map { "    " + $0 }
        }
        lines.append(fields ? #"help("\#(kind)") shows them with an example"# : #"help("\#(kind):NAME") shows one with an example"#)
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a word longer than
    /// a line stays whole).
    package static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// The text `help(fn)` prints, on an 80-column line.
    public var text: String { text(width: 80) }

    /// docs/lua-api.md, as generated from this table.
    public static var markdown: String {
        var lines = [
            "# Quarry's Lua functions", "",
            "Generated from `Sources/QuarryLua/Documentation/FunctionHelp.swift` and `MethodHelp.swift` (the same text",
            "`help(fn)` and `help(\"Item:updateall\")` print); a test runs every example on a store holding `Item`",
            "(title, n, when) with three objects.", ""
        ]
        for f in all {
            lines += ["## \(f.calledName)", "", "```lua", f.usage, "```", "", f.summary, "", "```lua", f.example, "```", ""]
        }
        lines += [
            "# Methods", "",
            "Called with `:` on a value of the kind named (`typeof` names it); `help(\"r:configure\")` or `help(r.configure)` prints one.", ""
        ]
        for f in methods {
            lines += ["## \(f.listedName)", "", "```lua", f.usage, "```", "", f.summary, "", "```lua", f.example, "```", ""]
        }
        lines += ["# Options of fetch{}", "", "The keys of a request's table; `help(\"group\")` prints one.", ""]
        for f in options {
            lines += ["## \(f.name)", "", "```lua", f.usage, "```", "", f.summary, "", "```lua", f.example, "```", ""]
        }
        return lines.joined(separator: "\n")
    }
}
