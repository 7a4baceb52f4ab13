import CLua
import CQuarryShim
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarryStore

/// The options of a request's table that are not its predicate: a template, and the shape
/// of its answer (`result`, `properties`, `group`, `having`, `distinct`).
extension QuarryRuntime {
    /// `template = "name"`: the model's fetch request template of that name gives the
    /// entity (when none is named) and the predicate, whose `$NAME`s `vars` fill.
    func fetchTemplate(_ s: OpaquePointer, _ index: Int32, entity: inout String?) throws -> String? {
        let type = LuaTable.field(s, index, "template")
        let name = type == LUA_TSTRING ? luaString(s, -1) : nil
        quarry_pop(s, 1)
        if type == LUA_TNIL { return nil }
        guard let name else { throw OptionError("template", mustBe: "the name of a fetch request template", operation: "fetch") }
        let templates = try context.fetchTemplates()
        guard let template = templates.first(where: { $0.name == name }) else {
            throw LuaError(
                "no fetch request template '\(name)' in the model" + (templates.isEmpty ? " (it has none)" : ""),
                operation: "fetch", suggestion: closestMatch(to: name, in: templates.map(\.name)))
        }
        if let named = entity, !context.isKind(named, of: template.entity) {
            throw LuaError("template '\(name)' fetches \(template.entity), not \(named)", operation: "fetch")
        }
        entity = entity ?? template.entity
        switch template.predicate {
        case .format(let text)?: return text
        case .unsupported(let why)?: throw LuaError("template '\(name)': its predicate cannot be read (\(why))", operation: "fetch")
        case nil: return nil
        }
    }

    func readResultShape(_ s: OpaquePointer, _ index: Int32, into request: inout LuaRequest) throws {
        if LuaTable.field(s, index, "result") != LUA_TNIL {
            let result = lua_type(s, -1) == LUA_TSTRING ? luaString(s, -1) : ""
            quarry_pop(s, 1)
            let shapes = ["objects", "ids", "count", "dictionaries"]
            guard shapes.contains(result) else {
                throw LuaError(
                    "result must be one of objects, ids, count, dictionaries; got '\(result)'", operation: "fetch",
                    suggestion: closestMatch(to: result, in: shapes))
            }
            request.result = result
        } else {
            quarry_pop(s, 1)
        }
        request.properties = try stringList(s, index, "properties")
        request.group = try stringList(s, index, "group")
        noteRealDivision(request.properties + request.group)
        if LuaTable.field(s, index, "distinct") != LUA_TNIL { request.distinct = lua_toboolean(s, -1) != 0 }
        quarry_pop(s, 1)
        switch LuaTable.field(s, index, "having") {
        case LUA_TNIL: quarry_pop(s, 1)
        case LUA_TSTRING:
            let format = luaString(s, -1)
            quarry_pop(s, 1)
            request.having = try parseHaving(format, [])
        case LUA_TTABLE:
            // having = { "count > %@", 1000 }
            let table = lua_gettop(s)
            let arguments = try predicateArguments(s, table, what: "having", operation: "fetch")
            quarry_pop(s, 1)
            guard case .value(.text(let format))? = arguments.first else {
                throw LuaError("having = { format, args... } needs the format first", operation: "fetch")
            }
            request.having = try parseHaving(format, Array(arguments.dropFirst()))
        default:
            defer { quarry_pop(s, 1) }
            guard let object = predicateObject(s, -1) else {
                throw OptionError("having", mustBe: "a predicate string or a predicate(...) object", operation: "fetch")
            }
            request.having = object
        }
        if request.result != "dictionaries", !request.properties.isEmpty || !request.group.isEmpty || request.having != nil {
            if request.result == "objects" {
                request.result = "dictionaries"
            } else {
                throw LuaError("properties, group and having go with result = \"dictionaries\"", operation: "fetch")
            }
        }
        if request.result == "dictionaries", request.properties.isEmpty {
            throw LuaError("result = \"dictionaries\" needs properties, e.g. properties = { \"carrier\", \"count(*)\" }", operation: "fetch")
        }
    }
}
