import CLua
import CQuarryShim
import QuarryModel
import QuarryStore

extension QuarryRuntime {
    /// `t.author` of an options table: nil when absent, else a string without NUL bytes
    /// (history keeps text, and C strings would cut it at the first NUL); anything else is
    /// refused rather than ignored, so a mistyped author is never recorded as `quarry`.
    static func author(_ call: LuaCall, _ index: Int32, operation: String) throws -> String? {
        let s = call.state
        defer { quarry_pop(s, 1) }
        switch LuaTable.field(s, index, "author") {
        case LUA_TNIL: return nil
        case LUA_TSTRING:
            let author = luaString(s, -1)
            guard !author.utf8.contains(0) else { throw OptionError("author", mustBe: "a string without NUL bytes", operation: operation) }
            return author
        default:
            throw OptionError("author", mustBe: "a string", got: call.typeName(-1), operation: operation)
        }
    }

    /// Refuses a key of an options table that `operation` does not take, with the nearest
    /// one it does, as `fetch{}` does.
    static func checkOptions(_ call: LuaCall, _ index: Int32, allowed: [String], operation: String) throws {
        let (keys, nonString) = LuaTable.stringKeys(call.state, index)
        for key in keys where !allowed.contains(key) {
            throw LuaError(
                "unknown option '\(key)'", operation: operation, suggestion: closestMatch(to: key, in: allowed),
                remedy: "options: " + allowed.joined(separator: ", "))
        }
        if nonString { throw LuaError("options are named (" + allowed.joined(separator: ", ") + "), not listed", operation: operation) }
    }
}
