/// Help for the keys of `fetch{ ... }` (also `Item:fetch{}`, `r:configure{}` and
/// `watch`'s requests), each a short entry that says what the key does and points to
/// `help(fetch)`, so that `help("group")` or `help("sort")` leads somewhere: a person meets
/// the key in an example or an error ("unknown key 'grup'") before the function.
extension FunctionHelp {
    public static let options: [FunctionHelp] = [
        option(
            "entity", #"fetch{ entity = "Item", ... } | fetch{ "Item", ... }"#,
            "The entity the request fetches: its name, first in the table or as entity =.",
            #"local r = fetch{ entity = "Item" }"#),
        option(
            "predicate", #"fetch{ "Item", predicate = "n > %@", args = { 1 } }"#,
            "Which objects: an NSPredicate format string (or predicate(...), or a #Predicate<Item>), run in SQL; r.predicate = ... re-runs the request.",
            #"local r = fetch{ "Item", predicate = "title BEGINSWITH[c] %@", args = { "t" } }"#),
        option(
            "args", #"fetch{ "Item", predicate = "n > %@ AND title != %@", args = { 1, "x" } }"#,
            "The values that fill the predicate's %@, %K, %d and %f, in order; null stands for nil.",
            #"local r = fetch{ "Item", predicate = "n BETWEEN { %@, %@ }", args = { 1, 2 } }"#),
        option(
            "vars", #"fetch{ "Item", predicate = "n > $LEAST", vars = { LEAST = 1 } }"#,
            "The values of the predicate's $NAME variables (and of a #Predicate's captured names), by name.",
            #"local r = fetch{ "Item", predicate = "n > $LEAST", vars = { LEAST = 1 } }"#),
        option(
            "sort", #"fetch{ "Item", sort = "-n" } | sort = { "title", "-n", { "title", compare = "caseInsensitive" } }"#,
            "The order: a key ascending, \"-key\" descending, or a table with ascending = and compare = (binary, caseInsensitive, localized, localizedStandard: numbers in text by value, as Finder); key paths may cross to-ones (owner.name), and a name with spaces is written as it is (\"-trainer.Home Town\"). Sorted in SQL.",
            #"local r = fetch{ "Item", sort = { "-n", "title" } }"#),
        option(
            "limit", #"fetch{ "Item", limit = 10 [, offset = 20] }"#,
            "At most this many objects (rows, for dictionaries), after offset; held after every change observers hear.",
            #"local r = fetch{ "Item", sort = "-n", limit = 2 }"#),
        option(
            "offset", #"fetch{ "Item", offset = 20, limit = 10 }"#, "Skips this many objects first, in the request's sort.",
            #"local r = fetch{ "Item", sort = "n", offset = 1, limit = 1 }"#),
        option(
            "batch", #"fetch{ "Item", batch = 200 }"#,
            "How many objects are read at a time as the results are walked (the rest are read when reached).",
            #"local r = fetch{ "Item", batch = 2 }"#),
        option(
            "section", #"fetch{ "Item", section = "key", sort = ... }"#,
            "Makes the results sectioned by a key's value: #r counts sections, r[i] is one (.id, .name, its objects), r:objects() walks them all; help(\"section\") also shows a section's fields.",
            #"local r = fetch{ "Item", section = "title", sort = "title" }"#),
        option(
            "result", #"fetch{ "Item", result = "objects" | "ids" | "count" | "dictionaries" }"#,
            "What the request returns: live results (objects, the default), object IDs, a count, or plain rows of properties (dictionaries).",
            #"local ids = fetch{ "Item", result = "ids" }"#),
        option(
            "properties", #"fetch{ "Item", result = "dictionaries", properties = { "title", "count(*)", "sum(n) AS total" } }"#,
            "The columns of dictionary rows: keys, key paths, date parts (when.year) and aggregates or expressions with AS names; with group, one row per group. A key path whose names hold spaces is written as it is named (trainer.Home Town), as sort and group take it; in quotes inside the string ('\"Type I\"') it would be a string constant, which is refused where it names a key.",
            #"local rows = fetch{ "Item", result = "dictionaries", properties = { "title", "n" } }"#),
        option(
            "group", #"fetch{ "Item", result = "dictionaries", properties = { "title", "count(*)" }, group = { "title" } [, having = "count > 1"] }"#,
            "Groups dictionary rows by keys (key paths, date parts, expressions; names with spaces as they are named, trainer.Home Town): one row per group, its aggregates in properties; computed in SQL. A constant (a quoted name) would make one group, and is refused.",
            #"local rows = fetch{ "Item", result = "dictionaries", properties = { "title", "count(*)" }, group = { "title" } }"#),
        option(
            "having", #"fetch{ ..., group = { "title" }, having = "count > 1" }"#,
            "Keeps the groups that match: a predicate over a key of the row or an aggregate as written (sum(n) > 2); its errors begin having:.",
            #"local rows = fetch{ "Item", result = "dictionaries", properties = { "title", "count(*)" }, group = { "title" }, having = "count >= 1" }"#
        ),
        option(
            "distinct", #"fetch{ "Item", result = "dictionaries", properties = { "title" }, distinct = true }"#,
            "Dictionary rows each once: rows whose every property is the same are one row (SQL's SELECT DISTINCT).",
            #"local rows = fetch{ "Item", result = "dictionaries", properties = { "title" }, distinct = true }"#),
        option(
            "includesPending", #"fetch{ "Item", includesPending = false }"#,
            "Whether unsaved changes count (true by default, as Core Data's includesPendingChanges): false reads what the store holds.",
            #"local r = fetch{ "Item", includesPending = false }"#),
        option(
            "subentities", #"fetch{ "Car", subentities = false }"#,
            "Whether a parent entity's request also holds its sub-entities' objects (true by default, as Core Data's includesSubentities).",
            #"local r = fetch{ "Item", subentities = false }"#),
        option(
            "template", #"fetch{ template = "recent", vars = { SINCE = d } }"#,
            "A fetch request template the model carries (model() reads them), its variables filled by vars.",
            #"local r = fetch{ template = "recent", vars = { SINCE = now() - 86400 } }"#),
        option(
            "prefetch", #"fetch{ "Item", prefetch = { "owner" } }"#,
            "Relationships read with the objects, in one query each, rather than one object at a time when reached.",
            #"local r = fetch{ "Item", prefetch = {} }"#)
    ]

    private static func option(_ name: String, _ usage: String, _ summary: String, _ example: String) -> FunctionHelp {
        FunctionHelp(
            name: name, usage: usage,
            summary: summary
                + " A key of fetch{} (also Item:fetch{}, r:configure{} where it changes the request); help(fetch) describes the request.",
            example: example, kind: "fetch option")
    }
}
