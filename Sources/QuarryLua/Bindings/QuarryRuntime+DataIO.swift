import CLua
import CQuarryShim
import Foundation
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryStore

extension QuarryRuntime {
    /// `types = { zip = "string", n = "int64" }` of import's options: column names to
    /// attribute types (a trailing `?` is allowed; whether a column may be nil is read
    /// from its cells).
    static func importTypes(_ call: LuaCall, _ index: Int32) throws -> [String: AttributeType] {
        let s = call.state
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, "types") {
        case LUA_TNIL: return [:]
        case LUA_TTABLE: break
        default: throw OptionError("types", mustBe: "a table of column names to types", got: call.typeName(-1), operation: "import")
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
                throw OptionError(
                    "'\(key)'", mustBe: "a type name", got: given.map { "'\($0)'" } ?? "no string", in: "types", operation: "import",
                    suggestion: given.flatMap { closestMatch(to: $0, in: names) }, remedy: "types: " + names.joined(separator: ", "))
            }
            types[key] = type
        }
        return types
    }

    /// `nulls = { "", "NA" }` of import's options: the unquoted fields read as nil; nil
    /// when not given.
    static func importNulls(_ call: LuaCall, _ index: Int32) throws -> [String]? {
        defer { quarry_pop(call.state, 1) }
        switch LuaTable.field(call.state, index, "nulls") {
        case LUA_TNIL: return nil
        case LUA_TTABLE: break
        default: throw OptionError("nulls", mustBe: "a list of strings (nulls = { \"\", \"NA\" })", got: call.typeName(-1), operation: "import")
        }
        var texts: [String] = []
        let count = lua_rawlen(call.state, -1)
        for i in 0..<Int(count) {
            lua_rawgeti(call.state, -1, lua_Integer(i + 1))
            defer { quarry_pop(call.state, 1) }
            guard lua_type(call.state, -1) == LUA_TSTRING else {
                throw LuaError(
                    "nulls must be a list of strings (nulls = { \"\", \"NA\" }); item \(i + 1) is a \(call.typeName(-1))", operation: "import")
            }
            texts.append(luaString(call.state, -1))
        }
        return texts
    }

    /// `separator = ";"` of import's options: one ASCII character between a CSV file's
    /// fields (`"\t"` a tab), not a quote or a line end; nil when not given (sniffed).
    static func importSeparator(_ call: LuaCall, _ index: Int32) throws -> UInt8? {
        defer { quarry_pop(call.state, 1) }
        let kind = LuaTable.field(call.state, index, "separator")
        if kind == LUA_TNIL { return nil }
        let given = kind == LUA_TSTRING ? luaString(call.state, -1) : nil
        guard let given, given.utf8.count == 1, let byte = given.utf8.first, byte < 0x80, ![34, 10, 13].contains(byte) else {
            throw OptionError(
                "separator", mustBe: "one character (\";\", \"\\t\", \"|\", \",\")",
                got: given.map { "'\(ErrorRendering.escaped($0))'" } ?? call.typeName(-1), operation: "import")
        }
        return byte
    }

    /// `header = false` of import's options: the CSV file's first record is a row, its
    /// columns named `column1`, `column2`, …; `true`: it names them; nil when not given
    /// (as the first record reads: `CSVFirstRecord`).
    static func importHeader(_ call: LuaCall, _ index: Int32) throws -> Bool? {
        defer { quarry_pop(call.state, 1) }
        switch LuaTable.field(call.state, index, "header") {
        case LUA_TNIL: return nil
        case LUA_TBOOLEAN: return lua_toboolean(call.state, -1) != 0
        default: throw OptionError("header", mustBe: "true or false", got: call.typeName(-1), operation: "import")
        }
    }

    /// What import says of a first record it read as a row: which field showed it, the
    /// names the columns got, and the option that reads the record as names.
    /// Into an existing entity (`into`), the columns are its attributes in order.
    static func firstRowNote(_ data: FirstRowAsData, path: String, into existing: String? = nil) -> String {
        let file = (path as NSString).lastPathComponent
        let type = data.type.rawValue
        let article = type.first.map { "aeiou".contains($0) } == true ? "an" : "a"
        let columns = existing.map { "the columns taken as \($0)'s attributes in order" } ?? "the columns named column1, column2, …"
        return "import \(file): the first row reads as data, not as column names (field \(data.column), "
            + "\(ErrorRendering.escaped(data.text)), is \(article) \(type), as the cells below it are): imported as a row, "
            + "\(columns); { header = true } reads it as the names"
    }

    /// What import says of the columns a CSV header left unnamed (an empty field): the
    /// names they got from their places.
    static func unnamedColumnsNote(_ names: [String], path: String) -> String {
        let file = (path as NSString).lastPathComponent
        let listed = names.joined(separator: ", ")
        return names.count == 1
            ? "import \(file): a column has no name in the header; named \(listed) by its place"
            : "import \(file): \(names.count) columns have no name in the header; named \(listed) by their places"
    }

    /// What import says of a column made text by a few cells (`ImportSummary.TextColumn`):
    /// the column, the type its other cells have, how many cells are not of it, the first
    /// by line and text, and the option that reads such a text as nil.
    static func textColumnNote(_ text: ImportSummary.TextColumn, path: String, nulls: [String]) -> String {
        let file = (path as NSString).lastPathComponent
        let count = (text.exact ? "" : "at least ") + (text.count == 1 ? "1 cell is" : "\(grouped(text.count)) cells are")
        let first = text.count == 1 ? "line \(text.firstLine)" : "the first at line \(text.firstLine)"
        let quoted = "\"" + ErrorRendering.escaped(text.firstText).replacingOccurrences(of: "\"", with: "\\\"") + "\""
        let spelled = (nulls + [text.firstText]).map { "\"" + ErrorRendering.escaped($0).replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
        // A clipped text is no text to list among the nulls.
        let remedy = text.firstText.hasSuffix("…") ? "" : ", or nulls = { \(spelled.joined(separator: ", ")) } reads that text as nil"
        return "import \(file): column \(text.column) is text: \(count) not \(text.type.rawValue) (\(first): \(quoted)); fix the file" + remedy
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
}
