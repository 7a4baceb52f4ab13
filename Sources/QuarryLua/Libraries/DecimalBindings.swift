import CLua
import CQuarryShim
import Foundation
import QuarryModel
import QuarryStore

/// Exact decimals in Lua (`Value.decimal`, PostgreSQL's `numeric`), as Core Data hands
/// out `NSDecimalNumber`: `tostring` gives the text the server writes (`195.10`); `+ - * /`
/// and unary minus with another decimal or a Lua number give a decimal, computed exactly
/// as the server computes numeric (`ExactDecimal`: every digit it holds, its scales, its
/// rounding), and `< <= ==` compare exactly. A Lua number counts as the decimal of its
/// shortest text (0.1 is 0.1), the text Quarry binds for it. A result past numeric's
/// bounds raises one line. `d.number` is the nearest Lua float. Lua calls `__eq` only
/// between two userdata, so `d == 0.99` is false: compare with `decimal(0.99)`, or `d.number`.
enum DecimalBindings {
    static let decimalLibrary: [LuaBinding] = [
        LuaBinding("decimal", luaDecimal)
    ]

    /// `decimal("195.10")`, `decimal("1e200")`, `decimal(2.5)`, `decimal(d)`: printed as the server prints numeric.
    static func luaDecimal(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        switch call.type(1) {
        case LUA_TSTRING:
            let text = try call.string(1)
            do {
                pushDecimal(call.state, try ExactDecimal(parsing: text))
            } catch ExactDecimal.Failure.notDecimal {
                let shown = text.trimmingCharacters(in: .whitespaces)
                let cut = shown.count > 60 ? String(shown.prefix(60)) + "…" : shown
                throw call.argumentError(1, "'\(cut)' is not a decimal number such as 195.10")
            } catch let failure as ExactDecimal.Failure {
                throw call.argumentError(1, failure.description)
            }
        default:
            if let box = decimalBox(call.state, 1) {
                pushDecimal(call.state, box.text)
                return 1
            }
            guard call.type(1) == LUA_TNUMBER, let value = luaValue(call.state, 1) else {
                throw call.typeError(1, expected: "decimal text or finite number")
            }
            guard let exact = DecimalText.exact(value) else {
                throw call.typeError(1, expected: "decimal text or finite number")
            }
            pushDecimal(call.state, exact)
        }
        return 1
    }

    static let decimalMetamethods: [LuaBinding] = [
        LuaBinding("__tostring") { _, call in call.push(decimalText(call.state, 1) ?? "") },
        LuaBinding("__eq") { _, call in
            guard let a = try? exact(call, 1), let b = try? exact(call, 2) else { return call.push(false) }
            return call.push(a == b)
        },
        LuaBinding("__lt") { _, call in try compare(call, <) },
        LuaBinding("__le") { _, call in try compare(call, <=) },
        LuaBinding("__add") { _, call in try arithmetic(call, "add") { try $0.adding($1) } },
        LuaBinding("__sub") { _, call in try arithmetic(call, "subtract") { try $0.subtracting($1) } },
        LuaBinding("__mul") { _, call in try arithmetic(call, "multiply") { try $0.multiplying($1) } },
        LuaBinding("__div") { _, call in try arithmetic(call, "divide") { try $0.dividing(by: $1) } },
        LuaBinding("__unm") { _, call in
            guard let a = try exact(call, 1) else { throw LuaError("attempt to negate a \(call.typeName(1)) value") }
            pushDecimal(call.state, -a)
            return 1
        },
        LuaBinding("__concat") { _, call in
            func text(_ i: Int32) throws -> String {
                if let d = decimalText(call.state, i) { return d }
                if call.type(i) == LUA_TSTRING || call.type(i) == LUA_TNUMBER, let v = luaValue(call.state, i) { return v.displayString }
                throw LuaError("attempt to concatenate a \(call.typeName(i)) value")
            }
            return call.push(try text(1) + text(2))
        },
        LuaBinding("__index") { _, call in
            let key = (try? call.string(2)) ?? ""
            guard let text = decimalText(call.state, 1) else { return call.pushNil() }
            guard key == "number" else { throw LuaError("decimals have no field '\(key)' (fields: number)") }
            lua_pushnumber(call.state, DecimalText.double(text))
            return 1
        }
    ]

    /// The operand at `i` as an exact decimal: a decimal, an integer, a finite float (by its
    /// shortest text); nil for anything else. A decimal whose text is past numeric's bounds
    /// (read from a SQLite file) raises.
    private static func exact(_ call: LuaCall, _ i: Int32) throws -> ExactDecimal? {
        if let box = decimalBox(call.state, i) {
            guard let value = box.value else { throw LuaError(ExactDecimal.Failure.overflow.description) }
            return value
        }
        guard call.type(i) == LUA_TNUMBER, let value = luaValue(call.state, i) else { return nil }
        return DecimalText.exact(value)
    }

    private static func arithmetic(
        _ call: LuaCall, _ verb: String,
        _ op: (ExactDecimal, ExactDecimal) throws -> ExactDecimal
    ) throws -> Int32 {
        guard let a = try exact(call, 1), let b = try exact(call, 2) else {
            throw LuaError("attempt to \(verb) \(call.typeName(1)) and \(call.typeName(2)) (decimals compute with decimals and numbers)")
        }
        do {
            pushDecimal(call.state, try op(a, b))
        } catch let failure as ExactDecimal.Failure {
            throw LuaError(failure.description)
        }
        return 1
    }

    private static func compare(_ call: LuaCall, _ op: (ExactDecimal, ExactDecimal) -> Bool) throws -> Int32 {
        guard let a = try exact(call, 1), let b = try exact(call, 2) else {
            throw LuaError("attempt to compare \(call.typeName(1)) with \(call.typeName(2))")
        }
        return call.push(op(a, b))
    }
}
