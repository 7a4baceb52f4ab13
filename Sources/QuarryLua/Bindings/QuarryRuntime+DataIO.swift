import CLua
import CQuarryShim
import Foundation
import QuarryFetch
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
