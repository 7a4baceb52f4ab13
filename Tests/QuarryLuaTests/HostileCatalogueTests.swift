import Foundation
import GRDB
import QuarryLua
import QuarrySQLite
import QuarryStore
import Testing

/// The hostile input catalogue, in-process: each row is malformed or adversarial input to
/// one part of the Lua API (predicates, wrong types, relationships, schema, saves, CSV and
/// JSON import). Each must fail with one line that says what was wrong and where (the
/// chunk's line, and the column for predicates), short even when the input is huge, and
/// leave the store as it was: every table's rows and schema, and the pending changes.
/// Cases that need the real binary and real files are in EndToEndTests/HostileFileTests.
/// The cases run one at a time: together they are seconds of synchronous work, which in
/// parallel would hold every thread of the test run's pool and starve the async tests.
@Suite(.serialized) struct HostileCatalogueTests {
    @Test(arguments: HostileCase.all)
    func hostileInputIsOneLineAndChangesNothing(_ c: HostileCase) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-hostile-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, bytes) in c.files {
            try Data(bytes).write(to: directory.appendingPathComponent(name))
        }
        let h = try Harness()
        h.run(HostileCase.store)
        if c.pending { h.run(HostileCase.pendingChanges) }
        if let prepare = c.prepare { h.run(prepare) }
        let before = try StoreSnapshot(h.context)

        let message = h.error(c.code.replacingOccurrences(of: "$DIR", with: directory.path))

        #expect(!message.contains("\n") && !message.contains("\r"), "more than one line: \(message.prefix(300))")
        #expect(message.utf8.count <= 1_200, "\(message.utf8.count) bytes long: \(message.prefix(300))")
        #expect(message.hasPrefix("t:\(c.line): "), "does not say where: \(message.prefix(300))")
        for part in c.expected {
            #expect(message.contains(part), "'\(part)' is missing from: \(message.prefix(600))")
        }
        for part in c.absent {
            #expect(!message.contains(part), "'\(part)' should not be in: \(message.prefix(600))")
        }
        let after = try StoreSnapshot(h.context)
        #expect(after.tables == before.tables, "the store changed")
        if c.keepsPending {
            #expect(after.pending == before.pending, "the pending changes changed: \(before.pending) → \(after.pending)")
        }
        // The store still works after the failure: a read and a rollback.
        h.run("assert(count('Item') >= 5); rollback(); assert(not haschanges())")
    }
}

/// One row of the catalogue.
struct HostileCase: Sendable, CustomTestStringConvertible {
    var name: String
    /// Lua run after the store is filled and before the snapshot (must succeed).
    var prepare: String? = nil
    /// The hostile chunk; `$DIR` is the folder holding `files`.
    var code: String
    /// Parts the one-line message must contain.
    var expected: [String]
    /// The line the message must name (`t:LINE:`).
    var line = 1
    /// Whether unsaved changes are made first (schema changes need none pending).
    var pending = true
    /// Whether the pending changes must be the same afterwards (false when the chunk made
    /// changes of its own before it failed: those stay pending until rollback).
    var keepsPending = true
    var files: [String: [UInt8]] = [:]
    /// Parts the message must not contain (a position given twice, SQLite's own words).
    var absent: [String] = []

    var testDescription: String { name }

    /// Three entities with every kind of relationship, five saved items.
    static let store = #"""
        entity "Person" { name = "string", items = { many = "Item", inverse = "owner", delete = "deny" } }
        entity "Tag" { label = "string", items = { many = "Item", inverse = "tags" } }
        entity "Item" { title = "string", n = "int64", when = "date?", code = { "string?", unique = true },
                        owner = { one = "Person", inverse = "items" }, tags = { many = "Tag", inverse = "items" } }
        local p = Person:new{ name = "ann" }
        local t = Tag:new{ label = "red" }
        for i = 1, 5 do
          local o = Item:new{ title = "t" .. i, n = i, code = "c" .. i, when = date(i * 86400) }
          o.owner = p; o.tags:add(t)
        end
        save()
        """#

    /// Unsaved changes of each kind, which a failure must leave as they are.
    static let pendingChanges = #"""
        Item:get("Item/1").title = "pending"
        Item:new{ title = "new", n = 99 }
        Item:get("Item/5"):delete()
        Item:get("Item/2").tags:remove(Tag:first())
        """#

    static func csv(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let all: [HostileCase] = predicates + wrongTypes + objects + schema + saves + csvFiles + jsonFiles + roundTwo

    // MARK: Predicates

    static let predicates: [HostileCase] = [
        HostileCase(
            name: "predicate: unbalanced opening parenthesis", code: #"count("Item", "(n > 1")"#,
            expected: ["predicate: expected ')' to close the '(' at column 1", "at column 7"]),
        HostileCase(
            name: "predicate: unbalanced closing parenthesis", code: #"count("Item", "n > 1)")"#,
            expected: ["predicate: unexpected ')'", "at column 6"]),
        HostileCase(
            name: "predicate: 10,000 nested parentheses", code: #"count("Item", ("("):rep(10000) .. "n > 1" .. (")"):rep(10000))"#,
            expected: ["nests more than 256 levels", "at column 257"]),
        HostileCase(
            name: "predicate: 10,000 opening parentheses alone", code: #"count("Item", ("("):rep(10000))"#,
            expected: ["nests more than 256 levels"]),
        HostileCase(
            name: "predicate: 10,000 nested parentheses in updateall",
            code: #"Item:updateall(("("):rep(10000) .. "n > 1" .. (")"):rep(10000), {}, { n = 0 })"#,
            expected: ["nests more than 256 levels"]),
        HostileCase(
            name: "predicate: 10,000 nested parentheses in predicate()", code: #"predicate(("("):rep(10000) .. "n > 1" .. (")"):rep(10000))"#,
            expected: ["nests more than 256 levels"]),
        HostileCase(
            name: "predicate: unterminated 1 MB string literal", code: #"count("Item", "title == '" .. ("a"):rep(1 << 20))"#,
            expected: ["predicate: unterminated string at column 10"]),
        HostileCase(
            name: "predicate: 1 MB key path", code: #"count("Item", ("x"):rep(1 << 20) .. " == 1")"#,
            expected: ["predicate: unknown key path 'xxx", "characters left out", "on entity Item at column 1"]),
        HostileCase(
            name: "predicate: 1 MB number literal", code: #"count("Item", "n == " .. ("9"):rep(1 << 20) .. "e9")"#,
            expected: ["predicate: ", "at column 6"]),
        HostileCase(
            name: "predicate: number out of range", code: #"count("Item", "n == 1e999999")"#,
            expected: ["number '1e999999' is out of range at column 6"]),
        HostileCase(
            name: "predicate: %K given SQL", code: #"count("Item", "%K == 1", "title; DROP TABLE Item")"#,
            expected: ["unknown key path 'title; DROP TABLE Item' on entity Item at column 1"]),
        HostileCase(
            name: "predicate: %K given a quote", code: #"count("Item", "%K == 1", 'title" OR 1=1 --')"#,
            expected: [#"unknown key path 'title" OR 1=1 --' on entity Item at column 1"#]),
        HostileCase(
            name: "predicate: %K given a NUL byte", code: #"count("Item", "%K == 1", "ti\0tle")"#,
            expected: [#"got 'ti\0tle' at column 1"#]),
        HostileCase(
            name: "predicate: %K given a number", code: #"count("Item", "%K == 1", 5)"#,
            expected: ["%K takes a key path string, got integer at column 1"]),
        HostileCase(
            name: "predicate: argument with quotes and a NUL byte", code: #"count("Item", "title == %@", "a'\"\0b")"#,
            expected: ["'title' is string and cannot be compared with", "holds no NUL bytes", "at column 10"]),
        HostileCase(
            name: "predicate: NUL byte in a string literal", code: #"count("Item", "title == 'a\0b'")"#,
            expected: ["holds no NUL bytes", "at column 10"]),
        HostileCase(
            name: "predicate: invalid UTF-8 in a key path", code: #"count("Item", "ti\xfftle == 1")"#,
            expected: ["predicate: unexpected character", "at column 3"]),
        HostileCase(
            name: "predicate: unknown operator", code: #"count("Item", "n <=> 1")"#,
            expected: ["found '>' at column 5"]),
        HostileCase(
            name: "predicate: empty", code: #"count("Item", "")"#,
            expected: ["predicate: the predicate is empty at column 1"]),
        HostileCase(
            name: "predicate: missing argument", code: #"count("Item", "n == %@")"#,
            expected: ["%@ has no argument (0 given) at column 6"]),
        HostileCase(
            name: "predicate: argument of the wrong type", code: #"count("Item", "n == %@", "abc")"#,
            expected: [#"'n' is int64 and cannot be compared with string "abc" at column 6"#]),
        HostileCase(
            name: "predicate: %d given a string", code: #"count("Item", "n == %d", "x")"#,
            expected: ["%d takes an integer, got string at column 6"]),
        HostileCase(
            name: "predicate: unknown format", code: #"count("Item", "n == %z", 1)"#,
            expected: ["'%' must be followed by", "at column 6"]),
        HostileCase(
            name: "predicate: variable without a value", code: #"count("Item", "n == $X")"#,
            expected: ["no value for $X (pass it in vars) at column 6"]),
        HostileCase(
            name: "predicate: invalid regular expression", code: #"count("Item", "title MATCHES '('")"#,
            expected: ["MATCHES: '(' is not a valid regular expression at column 15"]),
        HostileCase(
            name: "predicate: BETWEEN with one bound", code: #"count("Item", "n BETWEEN %@", 5)"#,
            expected: ["BETWEEN needs two bounds", "at column 3"]),
        HostileCase(
            name: "predicate: IN list holding a function", code: #"count("Item", "n IN %@", { print })"#,
            expected: ["bad argument #3 to 'count'"]),
        HostileCase(
            name: "predicate: unclosed list", code: #"count("Item", "n IN {1, 2")"#,
            expected: ["expected ',' or '}' in the list opened at column 6", "at column 11"]),
        HostileCase(
            name: "predicate: key path through an attribute", code: #"count("Item", "title.foo == 1")"#,
            expected: ["'title' in 'title.foo' is an attribute of Item, not a relationship at column 1"]),
        HostileCase(
            name: "predicate: object of the wrong entity", code: #"count("Item", "owner == %@", Tag:first())"#,
            expected: ["'owner' holds Person objects, not Tag at column 10"]),
        HostileCase(
            name: "predicate: reserved word as a key", code: #"count("Item", "n == 1 AND AND n == 2")"#,
            expected: ["'AND' is a reserved word", "at column 12"]),
        HostileCase(
            name: "predicate: unknown comparison option", code: #"count("Item", "title ==[x] 'a'")"#,
            expected: ["unknown comparison option 'x'", "at column 10"]),
        HostileCase(
            name: "predicate: malformed having",
            code: #"fetch{ "Item", result = "dictionaries", properties = { "n" }, group = { "n" }, having = "count >" }"#,
            expected: ["having: expected a key path or a value", "at column 8"]),
        HostileCase(
            name: "predicate: unknown key in deleteall", code: #"Item:deleteall("nope > 0", {})"#,
            expected: ["predicate: unknown key path 'nope' on entity Item at column 1"]),
        HostileCase(
            name: "predicate: reconfigured results", code: #"local r = fetch("Item"); r.predicate = "n == ("; return #r"#,
            expected: ["predicate: ", "at column"])
    ]

    // MARK: Wrong types in the Lua API

    static let wrongTypes: [HostileCase] = [
        HostileCase(
            name: "fetch: a number for the entity", code: "fetch(42)",
            expected: ["bad argument #1 to 'fetch' (string expected, got number)"]),
        HostileCase(name: "fetch: no entity", code: "fetch{}", expected: ["fetch: the request names no entity"]),
        HostileCase(name: "fetch: limit as a string", code: #"fetch{ "Item", limit = "ten" }"#, expected: ["fetch: limit must be an integer"]),
        HostileCase(name: "fetch: negative offset", code: #"fetch{ "Item", offset = -1 }"#, expected: ["fetch: offset must be 0 or more, got -1"]),
        HostileCase(
            name: "fetch: sort as a number", code: #"fetch{ "Item", sort = 42 }"#, expected: ["fetch: sort must be a key, or a table of keys"]),
        HostileCase(
            name: "fetch: unknown sort key", code: #"fetch{ "Item", sort = { "-nope" } }"#, expected: ["sort: unknown key 'nope' on entity Item"]),
        HostileCase(name: "fetch: unknown result shape", code: #"fetch{ "Item", result = "bogus" }"#, expected: ["fetch: result must be one of"]),
        HostileCase(name: "fetch: vars as a number", code: #"fetch{ "Item", vars = 5 }"#, expected: ["fetch: vars must be a table"]),
        HostileCase(name: "count: unknown entity", code: #"count("Nope")"#, expected: ["unknown entity 'Nope'"]),
        HostileCase(
            name: "results: limit as a string", code: #"local r = fetch("Item"); r.limit = "x""#,
            expected: ["r.limit", "integer expected, got string"]),
        HostileCase(
            name: "results: unknown field assigned", code: #"local r = fetch("Item"); r.bogus = 5"#,
            expected: ["results: 'bogus' cannot be assigned"]),
        HostileCase(name: "new: a number for the values", code: "Item:new(5)", expected: ["bad argument #1 to 'new' (table expected, got number)"]),
        HostileCase(name: "new: a table for an attribute", code: "Item:new{ title = 'x', n = {} }", expected: ["Item.n cannot hold a table"]),
        HostileCase(name: "new: unknown key", code: "Item:new{ nope = 1 }", expected: ["unknown key 'nope' on entity Item"]),
        HostileCase(name: "get: not an object ID", code: #"Item:get("x")"#, expected: ["expected an object ID such as 'Item/1', got 'x'"]),
        HostileCase(name: "get: a fraction", code: "Item:get(1.5)", expected: ["bad argument #1 to 'get' (number has no integer representation)"]),
        HostileCase(
            name: "updateall: arguments not a table", code: #"Item:updateall("n > 0", "x", { title = "x" })"#,
            expected: ["bad argument #2 to 'updateall'"]),
        HostileCase(
            name: "updateall: a value of the wrong type", code: #"Item:updateall("n > 0", {}, { n = "abc" })"#,
            expected: [#"Item.n expects int64, got string ("abc")"#]),
        HostileCase(
            name: "updateall: breaks a unique constraint", code: #"Item:updateall("n > 0", {}, { code = "same" })"#,
            expected: ["UNIQUE constraint failed: Item.code"]),
        HostileCase(name: "deleteall: a number for the predicate", code: "Item:deleteall(42)", expected: ["bad argument #1 to 'deleteall'"]),
        HostileCase(name: "date: not ISO 8601", code: #"date("garbage")"#, expected: ["'garbage' is not an ISO 8601 date"]),
        HostileCase(name: "date: a table", code: "date({})", expected: ["bad argument #1 to 'date'"]),
        HostileCase(
            name: "observe: not a function", code: #"observe(fetch("Item"), 42)"#,
            expected: ["bad argument #2 to 'observe' (function expected, got number)"]),
        HostileCase(name: "bind: unknown key", code: #"bind(Item:first(), "nope")"#, expected: ["unknown key 'nope' on entity Item"]),
        HostileCase(
            name: "export: not results", code: #"export("x", "$DIR/out.csv")"#,
            expected: ["bad argument #1 to 'export' (results expected, got string)"]),
        HostileCase(
            name: "export: into a missing folder", code: #"export(fetch("Item"), "$DIR/missing/out.csv")"#,
            expected: ["export: cannot write", "missing/out.csv"]),
        HostileCase(name: "predicate: not a string", code: "predicate(nil)", expected: ["bad argument #1 to 'predicate' (string expected, got nil)"]),
        HostileCase(
            name: "matches: not an object", code: #"predicate("n > 1"):matches(42)"#,
            expected: ["bad argument #1 to 'matches' (object expected, got number)"]),
        HostileCase(
            name: "explain: not results", code: "explain(42)",
            expected: ["bad argument #1 to 'explain' (results or dictionary rows expected, got number)"]),
        HostileCase(
            name: "history: since not a token", code: #"history{ since = "x" }"#, expected: ["history: since must be a token from historytoken()"]),
        HostileCase(
            name: "import: a number for the path", code: "import(42)", expected: ["bad argument #1 to 'import' (string expected, got number)"])
    ]

    // MARK: Objects and relationships

    static let objects: [HostileCase] = [
        HostileCase(name: "object: a string for an integer", code: #"Item:first().n = "x""#, expected: [#"Item.n expects int64, got string ("x")"#]),
        HostileCase(name: "object: 2^63 for an integer", code: "Item:first().n = 2^63", expected: ["Item.n expects int64, got number"]),
        HostileCase(name: "object: NaN for an integer", code: "Item:first().n = 0/0", expected: ["Item.n expects int64, got number (nan)"]),
        HostileCase(
            name: "object: NUL byte in a string", code: #"Item:first().title = "a\0b""#,
            expected: ["Item.title expects string, got string with a NUL byte"]),
        HostileCase(name: "object: newline in a rejected value", code: #"Item:first().n = "a\nb""#, expected: [#"got string ("a\nb")"#]),
        HostileCase(
            name: "object: not a date", code: #"Item:first().when = "not a date""#,
            expected: [
                #"Item.when expects date, got string ("not a date") (a date is date(...) or ISO 8601 text: "2015-07-01", "2015-07-01 09:30","#
            ]),
        HostileCase(
            name: "object: nil for a required attribute", code: "Item:first().n = nil", expected: ["Item.n expects int64 (not optional), got nil"]),
        HostileCase(
            name: "object: to-one of the wrong entity", code: "Item:first().owner = Tag:first()",
            expected: ["Item.owner expects Person object, got Tag object"]),
        HostileCase(
            name: "object: a number for a to-one", code: "Item:first().owner = 5", expected: ["Item.owner expects a Person object or nil, got number"]
        ),
        HostileCase(
            name: "object: a number added to a to-many", code: "Item:first().tags:add(42)",
            expected: ["bad argument #1 to 'add' (object expected, got number)"]),
        HostileCase(
            name: "object: wrong entity added to a to-many", code: "Item:first().tags:add(Person:first())",
            expected: ["Item.tags expects Tag object, got Person object"]),
        HostileCase(
            name: "object: a number for a to-many", code: "Item:first().tags = 5", expected: ["Item.tags takes a table of Tag objects, got number"]),
        HostileCase(
            name: "object: write after delete", code: "local o = Item:new{ title = 'x', n = 1 }; o:delete(); o.n = 5", expected: ["has been deleted"]),
        HostileCase(
            name: "object: delete denied by a rule", code: "Person:first():delete()", expected: ["Person/1 cannot be deleted: 'items' denies it"]),
        HostileCase(
            name: "object: delete() given a number", code: "quarry.delete(5)", expected: ["bad argument #1 to 'delete' (object expected, got number)"]
        )
    ]

    // MARK: Schema

    static let schema: [HostileCase] = [
        HostileCase(
            name: "entity: a number for the name", code: "entity(42)", expected: ["bad argument #1 to 'entity' (string expected, got number)"],
            pending: false),
        HostileCase(
            name: "entity: unknown type", code: #"entity "Bad" { x = "notatype" }"#, expected: ["entity Bad: unknown type 'notatype' for 'x'"],
            pending: false),
        HostileCase(
            name: "entity: a type change",
            code:
                #"entity "Item" { title = "int64", n = "int64", when = "date?", code = { "string?", unique = true }, owner = { one = "Person", inverse = "items" }, tags = { many = "Tag", inverse = "items" } }"#,
            expected: ["entity Item: cannot migrate: 'title' would change type from string to int64"], pending: false),
        HostileCase(
            name: "entity: a required attribute without a default",
            code:
                #"entity "Item" { title = "string", n = "int64", when = "date?", code = { "string?", unique = true }, extra = "string", owner = { one = "Person", inverse = "items" }, tags = { many = "Tag", inverse = "items" } }"#,
            expected: ["entity Item: cannot migrate: new attribute 'extra' is required"], pending: false),
        HostileCase(
            name: "entity: a reserved name", code: #"entity "quarry_model" { x = "string" }"#,
            expected: ["entity quarry_model: the name is reserved or empty"], pending: false),
        HostileCase(
            name: "entity: the key column as an attribute", code: #"entity "Other" { _pk = "string" }"#,
            expected: ["entity Other: '_pk' cannot be an attribute name"], pending: false),
        HostileCase(
            name: "entity: a migration with changes pending", code: #"entity "Item" { title = "string" }"#,
            expected: ["entity Item: cannot migrate: there are unsaved changes"]),
        HostileCase(
            name: "relate: unknown key", code: #"relate("Item", "nope", "Person", "name")"#, expected: ["unknown key 'nope' on entity Item"],
            pending: false)
    ]

    // MARK: Saves and scripts that fail halfway

    static let saves: [HostileCase] = [
        HostileCase(
            name: "save: a required attribute is nil", prepare: "Item:new{ title = 'x' }", code: "save()",
            expected: ["save: Item/t", ".n is required but nil"]),
        HostileCase(
            name: "save: breaks a unique constraint", prepare: "Item:new{ title = 'dup', n = 7, code = 'c2' }", code: "save()",
            expected: ["save: UNIQUE constraint failed: Item.code"]),
        HostileCase(
            name: "save: unknown merge policy", code: #"save{ merge = "bogus" }"#, expected: [#"save: merge must be "store" or "mine", got 'bogus'"#]),
        HostileCase(
            name: "script: errors after 10,000 changes",
            code: """
                for i = 1, 10000 do Item:get("Item/" .. (i % 4 + 1)).n = i; Item:new{ title = "x", n = i } end
                error("halfway")
                """, expected: ["halfway"], line: 2, keepsPending: false),
        HostileCase(
            name: "script: a wrong type after 1,000 inserts",
            code: """
                local made = 0
                for i = 1, 1000 do Item:new{ title = "x" .. i, n = i }; made = made + 1 end
                Item:new{ title = "bad", n = "not a number" }
                """, expected: [#"Item.n expects int64, got string ("not a number")"#], line: 3, keepsPending: false),
        HostileCase(
            name: "script: a failed save after 1,000 changes",
            code: """
                for i = 1, 1000 do Item:new{ title = "x" .. i, n = i, code = "k" .. (i % 999) } end
                save()
                """, expected: ["save: UNIQUE constraint failed: Item.code"], line: 2, keepsPending: false),
        HostileCase(
            name: "script: a Lua error naming a field with a newline", code: #"local t = {}; t["a\nb"]()"#,
            expected: ["attempt to call a nil value"])
    ]

    // MARK: CSV

    static let csvFiles: [HostileCase] = [
        HostileCase(
            name: "csv: a short row", code: #"import("$DIR/r.csv")"#, expected: ["import: ", "r.csv:3: expected 3 fields, got 2"],
            files: ["r.csv": csv("a,b,c\n1,2,3\n4,5\n")]),
        HostileCase(
            name: "csv: a long row", code: #"import("$DIR/r.csv")"#, expected: ["r.csv:3: expected 3 fields, got 4"],
            files: ["r.csv": csv("a,b,c\n1,2,3\n4,5,6,7\n")]),
        HostileCase(
            name: "csv: a quote not closed", code: #"import("$DIR/q.csv")"#, expected: ["q.csv:2: a quoted field is not closed"],
            files: ["q.csv": csv("a,b\n1,\"abc\n")]),
        HostileCase(
            name: "csv: text after a closing quote", code: #"import("$DIR/q.csv")"#, expected: ["q.csv:2: unexpected text after a closing quote"],
            files: ["q.csv": csv("a,b\n1,\"abc\"x\n")]),
        HostileCase(
            name: "csv: a quote inside an unquoted field", code: #"import("$DIR/q.csv")"#, expected: ["q.csv:2: a quote inside an unquoted field"],
            files: ["q.csv": csv("a,b\n1,ab\"c\n")]),
        HostileCase(
            // Into a string the bytes go as they are (TextBytesTests); a UUID is text.
            name: "csv: invalid UTF-8 in a uuid field", code: #"import("$DIR/u.csv", { types = { b = "uuid" } })"#,
            expected: ["u.csv:2: 'b' is not valid UTF-8"],
            files: ["u.csv": csv("a,b\n1,") + [0xFF, 0xFE, 0x0A]]),
        HostileCase(
            name: "csv: invalid UTF-8 in the header", code: #"import("$DIR/u.csv")"#, expected: ["u.csv:1: the name of column 2 is not valid UTF-8"],
            files: ["u.csv": csv("a,") + [0xFF] + csv("\n1,2\n")]),
        HostileCase(
            name: "csv: a NUL byte in a string field", code: #"import("$DIR/n.csv")"#, expected: ["n.csv:2: 'b' holds a NUL byte"],
            files: ["n.csv": csv("a,b\n1,x") + [0] + csv("y\n")]),
        HostileCase(
            name: "csv: a column twice", code: #"import("$DIR/d.csv")"#, expected: ["d.csv:1: column 'a' appears twice in the header"],
            files: ["d.csv": csv("a,a\n1,2\n")]),
        HostileCase(name: "csv: an empty file", code: #"import("$DIR/e.csv")"#, expected: ["e.csv: the file is empty"], files: ["e.csv": []]),
        HostileCase(
            // A new entity names such a column by its place (`CSVFirstRecord.names`); an
            // existing one is refused, saying where the name came from.
            name: "csv: an empty column name into an entity", code: #"import("$DIR/e.csv", { entity = "Item" })"#,
            expected: ["e.csv:1: column 2 has no name in the header (read as 'column2'), and entity Item has no attribute 'column2'"],
            files: ["e.csv": csv("title,,n\nx,2,3\n")]),
        HostileCase(
            name: "csv: a wrong type for an entity", code: #"import("$DIR/w.csv", { entity = "Item" })"#,
            expected: [#"w.csv:3: 'n' expects int64, got "abc""#],
            files: ["w.csv": csv("title,n\nx,1\ny,abc\n")]),
        HostileCase(
            name: "csv: a column the entity lacks", code: #"import("$DIR/w.csv", { entity = "Item" })"#,
            expected: ["w.csv:1: entity Item has no attribute 'nope'"],
            files: ["w.csv": csv("title,nope\nx,1\n")]),
        HostileCase(
            name: "csv: a required field empty", code: #"import("$DIR/w.csv", { entity = "Item" })"#,
            expected: ["w.csv:3: 'title' is required but empty"],
            files: ["w.csv": csv("title,n\nx,1\n,2\n")]),
        HostileCase(
            name: "csv: a unique value again", code: #"import("$DIR/w.csv", { entity = "Item" })"#,
            expected: ["w.csv:3: UNIQUE constraint failed: Item.code"],
            files: ["w.csv": csv("title,n,code\nx,1,new\ny,2,c1\n")]),
        HostileCase(
            name: "csv: a 1 MB quoted field not closed", code: #"import("$DIR/big.csv")"#, expected: ["big.csv:2: a quoted field is not closed"],
            files: ["big.csv": csv("a,b\n1,\"" + String(repeating: "x", count: 1 << 20) + "\n")]),
        HostileCase(
            name: "csv: a 1 MB field, then a ragged row", code: #"import("$DIR/big.csv")"#, expected: ["big.csv:3: expected 2 fields, got 3"],
            files: ["big.csv": csv("a,b\n1," + String(repeating: "x", count: 1 << 20) + "\n2,3,4\n")]),
        HostileCase(
            name: "csv: a 1 MB number", code: #"import("$DIR/big.csv", { entity = "Item" })"#, expected: ["big.csv:2: 'n' expects int64"],
            files: ["big.csv": csv("title,n\nx," + String(repeating: "9", count: 1 << 20) + "\n")]),
        HostileCase(
            name: "csv: a date in year 0000", code: #"import("$DIR/d.csv")"#,
            expected: ["d.csv:3: 'when' holds 0000-01-01T00:00:00Z, outside the dates a date attribute can hold (years 0001 to 9999 UTC)"],
            files: ["d.csv": csv("n,when\n1,2024-01-22T16:26:12Z\n2,0000-01-01T00:00:00Z\n")]),
        HostileCase(
            name: "csv: a date pushed past 9999 by its offset", code: #"import("$DIR/d.csv", { entity = "Item" })"#,
            expected: ["d.csv:2: 'when' holds 9999-12-31T23:59:59-01:00, outside the dates"],
            files: ["d.csv": csv("title,n,when\nx,1,9999-12-31T23:59:59-01:00\n")]),
        HostileCase(
            name: "csv: an integer a double column cannot hold exactly", prepare: #"entity "Real" { x = "double" }"#,
            code: #"import("$DIR/n.csv", { entity = "Real" })"#,
            expected: [#"n.csv:3: 'x' expects double, got "9007199254740993", an integer a double cannot hold exactly"#],
            pending: false, files: ["n.csv": csv("x\n1.5\n9007199254740993\n")]),
        HostileCase(
            name: "csv: integer digits beyond Int64 for a double column", prepare: #"entity "Real" { x = "double" }"#,
            code: #"import("$DIR/n.csv", { entity = "Real" })"#,
            expected: [#"n.csv:2: 'x' expects double, got "99999999999999999999", an integer"#],
            pending: false, files: ["n.csv": csv("x\n99999999999999999999\n")]),
        HostileCase(
            name: "csv: a NUL byte in a header name", code: #"import("$DIR/z.csv")"#,
            expected: [#"z.csv:1: the name of column 2, 'b\0c', holds a NUL byte"#],
            files: ["z.csv": csv("a,b") + [0] + csv("c\n1,2\n")]),
        HostileCase(
            name: "csv: a NUL byte in the entity name", code: #"import("$DIR/ok.csv", { entity = "It\0em" })"#,
            expected: [#"ok.csv: the entity name 'It\0em' holds a NUL byte"#],
            files: ["ok.csv": csv("a\n1\n")]),
        HostileCase(
            name: "csv: a header of 100,000 columns", code: #"import("$DIR/wide.csv")"#,
            expected: ["wide.csv:1: 100000 columns are too many: a table holds at most"],
            files: [
                "wide.csv": csv(
                    (0..<100_000).map { "c\($0)" }.joined(separator: ",") + "\n" + (0..<100_000).map { String($0) }.joined(separator: ",") + "\n")
            ]),
        HostileCase(
            name: "csv: a header of 100,000 columns, one named twice at the end", code: #"import("$DIR/wide.csv")"#,
            expected: ["wide.csv:1: column 'c5' appears twice in the header"],
            files: ["wide.csv": csv((0..<100_000).map { "c\($0)" }.joined(separator: ",") + ",c5\n")]),
        HostileCase(name: "csv: no such file", code: #"import("$DIR/none.csv")"#, expected: ["none.csv: cannot read the file: no such file"]),
        HostileCase(name: "csv: a directory", code: #"import("$DIR")"#, expected: ["cannot read the file: it is a directory"])
    ]

    // MARK: JSON

    static let jsonFiles: [HostileCase] = [
        HostileCase(
            name: "json: an object, not an array", code: #"import("$DIR/o.json")"#, expected: ["o.json: expected a JSON array of objects"],
            files: ["o.json": csv(#"{"a": 1}"#)]),
        HostileCase(
            name: "json: a number", code: #"import("$DIR/o.json")"#, expected: ["o.json: expected a JSON array of objects"],
            files: ["o.json": csv("42")]),
        HostileCase(
            name: "json: an array of numbers", code: #"import("$DIR/o.json")"#, expected: ["o.json: element 1 is not an object"],
            files: ["o.json": csv("[1, 2]")]),
        HostileCase(name: "json: not JSON", code: #"import("$DIR/o.json")"#, expected: ["o.json: not valid JSON"], files: ["o.json": csv("[{")]),
        HostileCase(
            name: "json: nested 100,000 deep", code: #"import("$DIR/o.json")"#, expected: ["o.json: not valid JSON"],
            files: ["o.json": csv(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))]),
        HostileCase(
            name: "json: invalid UTF-8", code: #"import("$DIR/o.json")"#, expected: ["o.json: not valid JSON"],
            files: ["o.json": csv(#"[{"a": ""#) + [0xFF] + csv(#""}]"#)]),
        HostileCase(
            name: "json: a wrong type for an entity", code: #"import("$DIR/o.json", { entity = "Item" })"#,
            expected: ["o.json: element 2: 'n' expects int64, got string"],
            files: ["o.json": csv(#"[{"title": "x", "n": 1}, {"title": "y", "n": "abc"}]"#)]),
        HostileCase(
            name: "json: an empty array", code: #"import("$DIR/o.json")"#, expected: ["o.json: no columns to make entity O from"],
            files: ["o.json": csv("[]")]),
        HostileCase(
            name: "json: objects without keys", code: #"import("$DIR/o.json")"#, expected: ["o.json: no columns to make entity O from"],
            files: ["o.json": csv("[{}, {}]")]),
        HostileCase(
            name: "json: a date in year 0000", code: #"import("$DIR/o.json")"#,
            expected: ["o.json: element 2: 'when' holds 0000-01-01T00:00:00Z, outside the dates a date attribute can hold"],
            files: ["o.json": csv(#"[{"when": "2024-01-22"}, {"when": "0000-01-01T00:00:00Z"}]"#)]),
        HostileCase(
            name: "json: an integer a double attribute cannot hold exactly", prepare: #"entity "Real" { x = "double" }"#,
            code: #"import("$DIR/o.json", { entity = "Real" })"#,
            expected: ["o.json: element 2: 'x' expects double, got 9007199254740993, an integer a double cannot hold exactly"],
            pending: false, files: ["o.json": csv(#"[{"x": 1.5}, {"x": 9007199254740993}]"#)]),
        HostileCase(
            name: "json: an integer beyond Int64", code: #"import("$DIR/o.json")"#,
            expected: ["o.json: element 1: 'x' holds 18446744073709551615, an integer beyond the 64-bit integers Quarry holds"],
            files: ["o.json": csv(#"[{"x": 18446744073709551615}]"#)]),
        HostileCase(
            name: "json: a NUL byte in a key", code: #"import("$DIR/o.json")"#,
            expected: [#"o.json: element 2: the key 'a\0b' holds a NUL byte"#],
            files: ["o.json": csv(#"[{"a": 1}, {"a\u0000b": 2}]"#)]),
        HostileCase(
            name: "json: the key column as a key", code: #"import("$DIR/o.json")"#, expected: ["o.json:1: '_pk' cannot be a column name"],
            files: ["o.json": csv(#"[{"_pk": 1}]"#)])
    ]
}

/// What a store holds: each table's schema, row count and a digest of its rows, and the
/// pending changes described object by object.
struct StoreSnapshot: Equatable {
    var tables: [String: String]
    var pending: String

    init(_ context: ObjectContext) throws {
        tables = try context.connection.database.read { db in
            var tables: [String: String] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'index') AND sql IS NOT NULL ORDER BY name")
            {
                let name: String = row[0]
                let sql: String = row[1]
                guard sql.uppercased().hasPrefix("CREATE TABLE") else {
                    tables["index " + name] = sql
                    continue
                }
                // Rows in a stable order whatever the table (link tables have no rowid).
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
                    .map { row in row.databaseValues.map { "\($0)" }.joined(separator: "|") }.sorted()
                var hash = FNV()
                for row in rows { hash.add(row + "\n") }
                tables[name] = "\(sql) rows=\(rows.count) digest=\(hash.value)"
            }
            return tables
        }
        let changes = context.pendingChanges
        func describe(_ objects: [ManagedObject]) -> String {
            objects.map { o in o.objectID + "{" + o.changes.map { "\($0.key)=\($0.new)" }.sorted().joined(separator: ",") + "}" }.joined(
                separator: " ")
        }
        pending =
            "hasChanges=\(context.hasChanges) inserted=[\(describe(changes.inserted))] updated=[\(describe(changes.updated))] deleted=[\(describe(changes.deleted))]"
    }
}

/// FNV-1a, 64 bits: enough to notice any change in a table's rows.
struct FNV {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ text: String) {
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }
}
