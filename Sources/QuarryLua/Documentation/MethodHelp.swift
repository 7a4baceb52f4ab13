/// Help for the methods values answer after `:`, kind by kind as Tab offers them (an entity
/// handle's, an object's, results', a to-many set's, a predicate's, an observer's, a
/// binding's, a state's, a namespace's); a section has fields, said under `section`.
/// `help("Item:updateall")`, `help("updateall")` and `help(Item.updateall)` print from it.
extension FunctionHelp {
    public static let methods: [FunctionHelp] = entityMethods + objectMethods + resultsMethods + otherMethods

    static let entityMethods: [FunctionHelp] = [
        FunctionHelp(
            name: "new", usage: "Item:new{ key = value, ... } | b.Item:new(o)",
            summary:
                "A new object of the entity, its attributes and relationships from the table (null for nil); written by save(). Given an object (of any store), a copy of it, as copy() makes one, and the list of what was left out.",
            example: #"local o = Item:new{ title = "t9", n = 9 }"#, kind: "entity"),
        FunctionHelp(
            name: "fetch", usage: #"Item:fetch("predicate", args...) | Item:fetch{ predicate =, sort =, limit =, ... }"#,
            summary:
                "fetch with the entity filled in: live results of the objects that match, or the ids, count or dictionary rows that result =, properties =, group = and distinct = ask for, as fetch{} gives them.",
            example: #"local r = Item:fetch{ predicate = "n > %@", args = { 1 }, sort = "-n" }"#, kind: "entity"),
        FunctionHelp(
            name: "count", usage: #"Item:count("predicate", args...) | Item:count{ ... }"#,
            summary:
                "How many of the entity's objects match, counted by SQLite; with properties, group or distinct in the table form, the rows Item:fetch{} would give.",
            example: #"Item:count("title BEGINSWITH %@", "t")"#, kind: "entity"),
        FunctionHelp(
            name: "first", usage: #"Item:first("predicate", args...) | Item:first{ predicate =, sort = }"#,
            summary: "The first object that matches (in the sort given, else in the store's order), or nil.",
            example: #"local o = Item:first{ predicate = "n > %@", args = { 1 }, sort = "-n" }"#, kind: "entity"),
        FunctionHelp(
            name: "get", usage: #"Item:get(id) | Item:get("Item/42") | Item:get{ k1, k2 }"#,
            summary:
                "The object of an object ID or of the row's primary key value (airlines:get(\"VX\"); a table for a key of two columns; on a table keyed by one column of its own a number is that key, compared as SQLite compares them: languages:get(1) finds \"1\"), or nil when there is none. On a table that declares no primary key a number is the row's number (its rowid, as its object ID has it), not its id column (id, or the one named after the table: airports.airport_id): a note says so where the two differ, with the first() that finds the id.",
            example: #"local o = Item:get(1)"#, kind: "entity"),
        FunctionHelp(
            name: "updateall", usage: #"Item:updateall("predicate", { args }, { key = value, ... })"#,
            summary:
                "Sets the keys on every row that matches in one SQL statement, without loading objects, written at once (rollback() does not undo it); observers and history hear it. Returns the rows changed. With a nil predicate every row changes, and an interactive prompt asks first.",
            example: #"Item:updateall("n > %@", { 2 }, { title = "big" })"#, kind: "entity"),
        FunctionHelp(
            name: "deleteall", usage: #"Item:deleteall("predicate", { args })"#,
            summary:
                "Deletes every row that matches in one SQL statement, written at once (rollback() does not undo it), delete rules applied; observers and history hear it. Returns the rows of the entity deleted; rows a cascade rule took from other entities are counted in a note. With no predicate every row goes, and an interactive prompt asks first, naming the entities a cascade reaches.",
            example: #"Item:deleteall("n > %@", { 2 })"#, kind: "entity"),
        FunctionHelp(
            name: "swift", usage: #"Item:swift() | Item:swift("coredata")"#,
            summary: "Swift source for the entity: a SwiftData @Model class, or with \"coredata\" an NSManagedObject subclass.",
            example: #"print(Item:swift())"#, kind: "entity")
    ]

    static let objectMethods: [FunctionHelp] = [
        FunctionHelp(
            name: "delete", usage: "o:delete()", summary: "Marks the object deleted; save() deletes its row, applying delete rules.",
            example: #"Item:first("n == 3"):delete()"#, kind: "object"),
        FunctionHelp(
            name: "objectID", usage: "o:objectID()",
            summary:
                "The object's ID as a string (\"Item/42\"; a row of a table keyed by one text or UUID column by its key, \"airlines/VX\"), stable after save; Item:get takes it.",
            example: "print(Item:first():objectID())", kind: "object"),
        FunctionHelp(
            name: "entity", usage: "o:entity()",
            summary: "The handle of the object's own entity (a sub-entity's, for rows fetched through a parent).",
            example: "print(Item:first():entity().name)", kind: "object"),
        FunctionHelp(
            name: "changes", usage: "o:changes()",
            summary:
                "The object's unsaved changes: a table from each changed key to { old, new, n = 2 } (a relationship as objects); n, as table.pack gives it, keeps a new value of nil, which the REPL prints as { \"San Francisco\", nil }.",
            example: #"local o = Item:first(); o.n = 10; for key, c in pairs(o:changes()) do print(key, c[1], c[2]) end"#, kind: "object"),
        FunctionHelp(
            name: "hasChanges", usage: "o:hasChanges()", summary: "True while the object has unsaved changes.",
            example: "print(Item:first():hasChanges())", kind: "object"),
        FunctionHelp(
            name: "isInserted", usage: "o:isInserted()", summary: "True for a new object that save() has not written yet.",
            example: #"print(Item:new{ title = "t5", n = 5 }:isInserted())"#, kind: "object"),
        FunctionHelp(
            name: "isDeleted", usage: "o:isDeleted()",
            summary:
                "True for an object deleted and not yet saved; false once save() wrote the delete, as Core Data's isDeleted (the object then prints as Item/1 (deleted)).",
            example: "print(Item:first():isDeleted())", kind: "object"),
        FunctionHelp(
            name: "refresh", usage: "o:refresh()", summary: "Drops the object's unsaved changes and reads its row again.",
            example: "Item:first():refresh()", kind: "object")
    ]

    static let resultsMethods: [FunctionHelp] = [
        FunctionHelp(
            name: "configure", usage: "r:configure{ predicate =, args =, sort =, limit =, offset =, section = }",
            summary: "Changes several parts of the request at once (false clears one); it runs again once, and observers hear one event.",
            example: #"local r = fetch("Item"); r:configure{ predicate = "n > %@", args = { 1 }, sort = "-n", limit = 2 }"#, kind: "results"),
        FunctionHelp(
            name: "first", usage: "r:first()", summary: "The first object of the results, or nil.",
            example: #"local o = fetch{ "Item", sort = "-n" }:first()"#,
            kind: "results"),
        FunctionHelp(
            name: "ids", usage: "r:ids()", summary: "The object IDs of the results, in order, as a table of strings.",
            example: #"for _, id in ipairs(fetch("Item"):ids()) do print(id) end"#, kind: "results"),
        FunctionHelp(
            name: "totable", usage: "r:totable()", summary: "The objects of the results, in order, as a plain Lua table.",
            example: #"local list = fetch("Item"):totable()"#, kind: "results"),
        FunctionHelp(
            name: "objects", usage: "r:objects()", summary: "Iterates every object in order, also across the sections of sectioned results.",
            example: #"for o in fetch{ "Item", section = "title" }:objects() do print(o.title) end"#, kind: "results"),
        FunctionHelp(
            name: "swift", usage: #"r:swift("fetchrequest" | "sectioned" | "query" | "descriptor" | "nsfetchrequest")"#,
            summary: "The Swift for the request that made the results, as swift(r, style) gives it.",
            example: #"print(fetch{ "Item", sort = "-n" }:swift("query"))"#, kind: "results"),
        FunctionHelp(
            name: "section", usage: "r[i].id, r[i].name, #r[i], r[i][j]",
            summary: "A section of sectioned results (fetch{ ..., section = \"key\" }): .id is the key's value, .name its text, #sec its objects.",
            example: #"for _, sec in ipairs(fetch{ "Item", section = "title" }) do print(sec.name, #sec) end"#, kind: "section")
    ]

    static let otherMethods: [FunctionHelp] = [
        FunctionHelp(
            name: "close", usage: "b:close()",
            summary:
                "Closes a store open() opened; refused while it has unsaved changes (save(b) or rollback(b) first). Its handle and objects refuse every use after. The session's store is not closed so (.open replaces it).",
            example: #"local b = open(":memory:"); b:close()"#, kind: "store"),
        FunctionHelp(
            name: "add", usage: "o.tags:add(x)", summary: "Adds an object to a to-many relationship (its inverse follows); written by save().",
            example:
                #"entity "Tag" { label = "string", items = { many = "Item", inverse = "tags" } }; Tag:new{ label = "red" }.items:add(Item:first())"#,
            kind: "set"),
        FunctionHelp(
            name: "remove", usage: "o.tags:remove(x)", summary: "Takes an object out of a to-many relationship.",
            example:
                #"entity "Tag" { label = "string", items = { many = "Item", inverse = "tags" } }; local t = Tag:new{ label = "red" }; t.items:add(Item:first()); t.items:remove(Item:first())"#,
            kind: "set"),
        FunctionHelp(
            name: "contains", usage: "o.tags:contains(x)", summary: "True when the object is a member of the to-many relationship.",
            example:
                #"entity "Tag" { label = "string", items = { many = "Item", inverse = "tags" } }; print(Tag:new{ label = "red" }.items:contains(Item:first()))"#,
            kind: "set"),
        FunctionHelp(
            name: "insert", usage: "o.steps:insert(i, x)",
            summary:
                "Adds an object at position i of an ordered to-many relationship (a Core Data store's, or a join table's whose key holds a position), which keeps positions.",
            example: #"entity "List" { steps = { many = "Item" } }; List:new{}.steps:insert(1, Item:first())"#, kind: "set"),
        FunctionHelp(
            name: "move", usage: "o.steps:move(from, to)",
            summary:
                "Moves the member at position from to position to, in an ordered to-many relationship (a Core Data store's, or a join table's whose key holds a position).",
            example: #"entity "List" { steps = { many = "Item" } }; local l = List:new{}; l.steps:add(Item:first()); l.steps:move(1, 1)"#,
            kind: "set"),
        FunctionHelp(
            name: "matches", usage: "p:matches(o)", summary: "Whether the object matches the predicate, evaluated in memory as SQLite would.",
            example: #"print(predicate("n >= %@", 2):matches(Item:first()))"#, kind: "predicate"),
        FunctionHelp(
            name: "swift", usage: #"p:swift("Entity")"#, summary: "The predicate as a Swift #Predicate over the entity's class.",
            example: #"print(predicate("n >= %@", 2):swift("Item"))"#, kind: "predicate"),
        FunctionHelp(
            name: "cancel", usage: "h:cancel()", summary: "Ends the observer: its function is not called again.",
            example: #"local h = observe("Item", function(ch) end); h:cancel()"#, kind: "observer"),
        FunctionHelp(
            name: "cancel", usage: "ns:cancel()", summary: "Ends every observer, binding and state made with { namespace = ns }.",
            example: #"local ns = namespace(); observe("Item", function() end, { namespace = ns }); ns:cancel()"#, kind: "namespace"),
        FunctionHelp(
            name: "observe", usage: "b:observe(fn(new, old))",
            summary: "Calls fn whenever the bound attribute changes (a save, a rollback, another process).",
            example: #"bind(Item:first(), "title"):observe(function(new, old) print(old, "->", new) end)"#, kind: "binding"),
        FunctionHelp(
            name: "observe", usage: "s:observe(fn(new, old))", summary: "Calls fn whenever s.value is set to a different value.",
            example: "local s = state(1); s:observe(function(new, old) print(old, new) end); s.value = 2", kind: "state")
    ]
}
