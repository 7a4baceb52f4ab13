import CLua
import CQuarryShim
import Foundation
import QuarryStore
import QuarryModel

/// Exact decimals in Lua (`Value.decimal`, PostgreSQL's `numeric`), as Core Data hands
/// out `NSDecimalNumber`: `tostring` gives the text the server wrote (`195.10`); `+ - * /`
/// and unary minus with another decimal or a Lua number give a decimal, computed in
/// Foundation's `Decimal` (38 digits), and `< <= ==` compare exactly. A Lua number
/// counts as the decimal of its shortest text (0.1 is 0.1), the text Quarry binds for it.
/// `d.number` is the nearest Lua float. Lua calls `__eq` only between two userdata, so
/// `d == 0.99` is false: compare with `decimal(0.99)`, or `d.number`.
enum DecimalBindings {
    static let decimalLibrary: [LuaBinding] = [
        LuaBinding("decimal", luaDecimal),
    ]

    /// `decimal("195.10")`, `decimal(2.5)`, `decimal(d)`.
    static func luaDecimal(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        switch call.type(1) {
        case LUA_TSTRING:
            let text = try call.string(1).trimmingCharacters(in: .whitespaces)
            guard let value = DecimalText.value(text) else {
                throw call.argumentError(1, "'\(text)' is not a decimal number such as 195.10")
            }
            // An exponent is written out, as the server writes numeric ("1e3" is 1000).
            pushDecimal(call.state, text.contains(where: { $0 == "e" || $0 == "E" }) ? DecimalText.text(value) : text)
        default:
            guard let value = luaValue(call.state, 1), let exact = operand(value) else {
                throw call.typeError(1, expected: "decimal text or finite number")
            }
            if case .decimal(let text) = value { pushDecimal(call.state, text) } else { pushDecimal(call.state, DecimalText.text(exact)) }
        }
        return 1
    }

    static let decimalMetamethods: [LuaBinding] = [
        LuaBinding("__tostring") { _, call in call.push(decimalText(call.state, 1) ?? "") },
        LuaBinding("__eq") { _, call in
            guard let a = exact(call, 1), let b = exact(call, 2) else { return call.push(false) }
            return call.push(a == b)
        },
        LuaBinding("__lt") { _, call in try compare(call, <) },
        LuaBinding("__le") { _, call in try compare(call, <=) },
        LuaBinding("__add") { _, call in try arithmetic(call, "add", scale: max) { $0 + $1 } },
        LuaBinding("__sub") { _, call in try arithmetic(call, "subtract", scale: max) { $0 - $1 } },
        LuaBinding("__mul") { _, call in try arithmetic(call, "multiply", scale: +) { $0 * $1 } },
        LuaBinding("__div") { _, call in
            try arithmetic(call, "divide", scale: { _, _ in 0 }) { a, b in
                guard b != 0 else { throw LuaError("decimal division by zero") }
                return a / b
            }
        },
        LuaBinding("__unm") { _, call in
            guard let a = exact(call, 1) else { throw LuaError("attempt to negate a \(call.typeName(1)) value") }
            return push(call, -a, scale: scale(call, 1))
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
        },
    ]

    /// A value as an exact decimal: decimals, integers, finite floats (by their shortest text).
    private static func operand(_ value: Value) -> Decimal? {
        switch value {
        case .decimal, .integer, .real: return DecimalText.exact(value)
        default: return nil
        }
    }

    private static func exact(_ call: LuaCall, _ i: Int32) -> Decimal? {
        if let text = decimalText(call.state, i) { return DecimalText.value(text) }
        guard call.type(i) == LUA_TNUMBER, let value = luaValue(call.state, i) else { return nil }
        return operand(value)
    }

    private static func push(_ call: LuaCall, _ d: Decimal, scale: Int) -> Int32 {
        pushDecimal(call.state, DecimalText.text(d, scale: scale))
        return 1
    }

    /// The digits after the point an operand has (a Lua number's shortest text's).
    private static func scale(_ call: LuaCall, _ i: Int32) -> Int {
        if let text = decimalText(call.state, i) { return DecimalText.scale(text) }
        return luaValue(call.state, i).map(DecimalText.scale(of:)) ?? 0
    }

    /// `scale`: the result's digits after the point from the operands', as PostgreSQL's
    /// numeric keeps them for + - (the larger) and * (the sum).
    private static func arithmetic(_ call: LuaCall, _ verb: String, scale: (Int, Int) -> Int,
                                   _ op: (Decimal, Decimal) throws -> Decimal) throws -> Int32 {
        guard let a = exact(call, 1), let b = exact(call, 2) else {
            throw LuaError("attempt to \(verb) \(call.typeName(1)) and \(call.typeName(2)) (decimals compute with decimals and numbers)")
        }
        let result = try op(a, b)
        guard !result.isNaN else { throw LuaError("decimal \(verb) left the 38 digits a decimal holds") }
        return push(call, result, scale: scale(self.scale(call, 1), self.scale(call, 2)))
    }

    private static func compare(_ call: LuaCall, _ op: (Decimal, Decimal) -> Bool) throws -> Int32 {
        guard let a = exact(call, 1), let b = exact(call, 2) else {
            throw LuaError("attempt to compare \(call.typeName(1)) with \(call.typeName(2))")
        }
        return call.push(op(a, b))
    }
}
