import Foundation
import QuarryModel
import QuarryStore

/// Arithmetic, functions and aggregates over values, with SQLite's rules. The SQLite
/// functions `quarry_arith` and `quarry_fn` call this same code, so a fetch and
/// `p:matches` cannot disagree on `price * 2` or `abs:(x)`.
public enum ExpressionValues {
    private enum Number { case int(Int64), real(Double) }

    /// A value as arithmetic reads it, as SQLite converts it (booleans are 0 and 1, text
    /// its numeric prefix); nil for NULL.
    private static func number(_ value: Value) -> Number? {
        switch value {
        case .null: return nil
        case .integer(let i): return .int(i)
        case .bool(let b): return .int(b ? 1 : 0)
        // SQLite stores -0.0 as 0, so the sign is dropped here too (pow(-0.0, -1) is -inf).
        case .real(let d), .date(let d): return .real(d == 0 ? 0 : d)
        case .text(let t): return prefix(t)
        // A number is spelled in ASCII: bytes that are not UTF-8 end it, as they end SQLite's.
        case .textBytes(let bytes), .blob(let bytes): return prefix(String(decoding: bytes, as: UTF8.self))
        case .decimal(let s): return .real(Double(s) ?? 0)
        }
    }

    /// Text's numeric prefix as arithmetic reads it: an integer where SQLite makes one.
    private static func prefix(_ text: String) -> Number {
        if let i = SQLOrdering.integerPrefix(text) { return .int(i) }
        return .real(SQLOrdering.numericPrefix(text))
    }

    private static func double(_ n: Number) -> Double {
        switch n {
        case .int(let i): return Double(i)
        case .real(let d): return d
        }
    }

    /// SQLite turns a NaN result into NULL; so does the evaluator, to answer alike.
    private static func real(_ d: Double) -> Value { d.isNaN ? .null : .real(d) }

    /// `a op b`. Integers stay integers for `+ - *` until they overflow (then real, as
    /// SQLite); `/` always divides as reals, as Foundation's `divide:by:` does; division
    /// by zero is nil, as SQLite's.
    public static func arithmetic(_ op: ArithmeticOperator, _ a: Value, _ b: Value) -> Value {
        if let exact = decimalArithmetic(op, a, b) { return exact }
        guard let x = number(a), let y = number(b) else { return .null }
        if op == .modulus { return remainder(x, y) }
        // Swift's `/` between integers: the fraction dropped (toward zero, as SQLite's).
        if op == .quotient, case .int(let i) = x, case .int(let j) = y {
            guard j != 0 else { return .null }
            let (q, overflow) = i.dividedReportingOverflow(by: j)
            return overflow ? real(-Double(i)) : .integer(q)
        }
        if case .int(let i) = x, case .int(let j) = y, op == .add || op == .subtract || op == .multiply {
            let (result, overflow): (Int64, Bool)
            switch op {
            case .add: (result, overflow) = i.addingReportingOverflow(j)
            case .subtract: (result, overflow) = i.subtractingReportingOverflow(j)
            default: (result, overflow) = i.multipliedReportingOverflow(by: j)
            }
            if !overflow { return .integer(result) }
        }
        let (p, q) = (double(x), double(y))
        switch op {
        case .add: return real(p + q)
        case .subtract: return real(p - q)
        case .multiply: return real(p * q)
        case .divide, .quotient: return q == 0 ? .null : real(p / q)
        case .power: return real(Foundation.pow(p, q))
        case .modulus: return remainder(x, y)
        }
    }

    /// `modulus:by:` and Swift's `%`: the remainder with the dividend's sign, of integers as
    /// an integer, else as `fmod` (Swift's `truncatingRemainder`); by zero nil, as `/` (Swift
    /// stops the program there).
    private static func remainder(_ x: Number, _ y: Number) -> Value {
        if case .int(let i) = x, case .int(let j) = y {
            guard j != 0 else { return .null }
            // Int64.min % -1 overflows the quotient only: the remainder is 0.
            return .integer(i.remainderReportingOverflow(dividingBy: j).partialValue)
        }
        let (p, q) = (double(x), double(y))
        return q == 0 ? .null : real(Foundation.fmod(p, q))
    }

    /// `a op b` exactly when a decimal (PostgreSQL's numeric) meets a decimal or an integer
    /// in `+ - * /`, as the server computes numeric, keeping its scale (the larger for + and -,
    /// the sum for *, select_div_scale's for /); nil otherwise (a real takes part: doubles,
    /// as float8 there).
    private static func decimalArithmetic(_ op: ArithmeticOperator, _ a: Value, _ b: Value) -> Value? {
        func isDecimal(_ v: Value) -> Bool { if case .decimal = v { return true } else { return false } }
        func isExact(_ v: Value) -> Bool {
            switch v {
            case .decimal, .integer, .bool: return true
            default: return false
            }
        }
        guard isDecimal(a) || isDecimal(b), isExact(a), isExact(b), op != .power, op != .modulus, op != .quotient,
            let x = DecimalText.exact(a), let y = DecimalText.exact(b)
        else { return nil }
        // Division as numeric divides, to select_div_scale's scale; by zero, NULL as SQLite's.
        if op == .divide {
            if y == .zero { return .null }
            return (try? x.dividing(by: y)).map { .decimal($0.description) }
        }
        // Past numeric's bounds the server refuses; in memory the answer is the doubles'.
        let result: ExactDecimal?
        switch op {
        case .add: result = try? x.adding(y)
        case .subtract: result = try? x.subtracting(y)
        default: result = try? x.multiplying(y)
        }
        return result.map { .decimal($0.description) }
    }

    /// A one-argument function: the numeric ones keep integers where the answer is one.
    public static func apply(_ function: BuiltinFunction, _ a: Value) -> Value {
        if function.countsText {
            // Text that is not UTF-8 is counted as Swift reads it, each bad byte a U+FFFD.
            let text: String
            switch a {
            case .text(let s): text = s
            case .textBytes(let bytes): text = String(decoding: bytes, as: UTF8.self)
            default: return .null
            }
            return .integer(Int64(function == .length ? text.utf16.count : text.count))
        }
        if function.isString {
            // Text that is not UTF-8 changes its ASCII letters alone, as SQLite's lower()
            // and upper() change them: its other bytes stay as they are.
            if case .textBytes(let bytes) = a {
                return .textBytes(
                    bytes.map { byte in
                        let letter = function == .lowercase ? (65...90).contains(byte) : (97...122).contains(byte)
                        return letter ? byte ^ 0x20 : byte
                    })
            }
            guard case .text(let s) = a else { return a.isNull ? .null : a }
            return .text(function == .lowercase ? s.lowercased() : s.uppercased())
        }
        guard let x = number(a) else { return .null }
        switch (function, x) {
        case (.abs, .int(let i)): return i == .min ? .real(-Double(i)) : .integer(Swift.abs(i))
        case (.floor, .int), (.ceiling, .int), (.trunc, .int): return .integer(intValue(x))
        case (.abs, .real(let d)): return .real(Swift.abs(d))
        case (.floor, .real(let d)): return real(d.rounded(.down))
        case (.ceiling, .real(let d)): return real(d.rounded(.up))
        case (.trunc, .real(let d)): return real(d.rounded(.towardZero))
        case (.sqrt, _): return real(Foundation.sqrt(double(x)))
        case (.ln, _): return real(Foundation.log(double(x)))
        case (.log, _): return real(Foundation.log10(double(x)))
        case (.exp, _): return real(Foundation.exp(double(x)))
        default: return .null
        }
    }

    private static func intValue(_ n: Number) -> Int64 {
        if case .int(let i) = n { return i }
        return 0
    }

    /// count, sum, avg, min and max as SQLite computes them over `values`, except that the
    /// sum of none is 0, as KVC's `@sum` answers (SQLite's `sum()` gives NULL; the SQL
    /// writes `coalesce(sum(x), 0)`).
    public static func aggregate(_ function: BoundPredicate.CollectionFunction, _ values: [Value]) -> Value {
        if function == .count { return .integer(Int64(values.count)) }
        let present = values.filter { !$0.isNull }
        guard let first = present.first else { return function == .sum ? .integer(0) : .null }
        // Decimals (PostgreSQL's numeric) sum exactly, as the server's sum(numeric) does,
        // to the largest scale among them.
        if function == .sum || function == .avg, present.contains(where: { if case .decimal = $0 { return true } else { return false } }) {
            // avg divides as numeric division does (PostgreSQL's numeric_avg).
            let exact = present.compactMap(DecimalText.exact)
            if exact.count == present.count, let total = try? exact.dropFirst().reduce(exact[0], { try $0.adding($1) }) {
                if function == .sum { return .decimal(total.description) }
                if let mean = try? total.dividing(by: ExactDecimal(Int64(present.count))) { return .decimal(mean.description) }
            }
        }
        switch function {
        case .min: return present.dropFirst().reduce(first) { (SQLOrdering.compare($1, $0) ?? 0) < 0 ? $1 : $0 }
        case .max: return present.dropFirst().reduce(first) { (SQLOrdering.compare($1, $0) ?? 0) > 0 ? $1 : $0 }
        default:
            var integerSum: Int64 = 0
            var realSum = 0.0
            var allIntegers = true
            for value in present {
                switch value {
                case .integer(let i):
                    integerSum &+= i
                    realSum += Double(i)
                case .bool(let b):
                    integerSum += b ? 1 : 0
                    realSum += b ? 1 : 0
                case .real(let d), .date(let d):
                    allIntegers = false
                    realSum += d
                case .text(let t):
                    // As SQLite's sum(): text that is an integer adds as one; any other text
                    // adds the number its longest numeric prefix spells (0 for none).
                    if let i = SQLOrdering.integerText(t) {
                        integerSum &+= i
                        realSum += Double(i)
                    } else {
                        allIntegers = false
                        realSum += SQLOrdering.numericPrefix(t)
                    }
                case .textBytes(let bytes), .blob(let bytes):
                    allIntegers = false
                    realSum += SQLOrdering.numericPrefix(String(decoding: bytes, as: UTF8.self))
                case .decimal(let s):
                    allIntegers = false
                    realSum += Double(s) ?? 0
                case .null: break
                }
            }
            if function == .avg { return .real(realSum / Double(present.count)) }
            return allIntegers ? .integer(integerSum) : .real(realSum)
        }
    }
}
