import Foundation
import QuarryModel
import QuarryStore

/// Arithmetic a store with exact decimals (PostgreSQL's `numeric`) refuses at its bounds,
/// refused the same way in memory, so `p:matches` answers where a fetch answers and
/// fails where it fails: a sum or product of decimals past `numeric`'s digits, and a
/// decimal the SQL computes as a double (`/`, `**`, `%`, or a real beside it) that no
/// double holds (`1e-16383` is 0 as a double, `1e131071` an infinity). The words are the
/// ones the store's refusal is said in. A store that keeps decimals as doubles (SQLite)
/// refuses neither, in SQL or in memory.
enum DecimalBounds {
    /// Why `a op b` has no answer the store gives; nil where it has one.
    static func refusal(_ op: ArithmeticOperator, _ a: Value, _ b: Value) -> String? {
        guard a.isDecimalValue || b.isDecimalValue else { return nil }
        let exact = [a, b].allSatisfy {
            switch $0 {
            case .decimal, .integer, .bool: return true
            default: return false
            }
        }
        if exact, [.add, .subtract, .multiply].contains(op) {
            // Computed exactly only near the bounds: 131,072-digit arithmetic is not cheap.
            guard mayPassBounds(op, a, b), let x = DecimalText.exact(a), let y = DecimalText.exact(b) else { return nil }
            do {
                switch op {
                case .add: _ = try x.adding(y)
                case .subtract: _ = try x.subtracting(y)
                default: _ = try x.multiplying(y)
                }
                return nil
            } catch {
                return ExactDecimal.Failure.overflow.description
            }
        }
        for case .decimal(let text) in [a, b] {
            guard let magnitude = unheldByDouble(text) else { continue }
            return unheld(magnitude)
        }
        return nil
    }

    /// Why `function(a)` has no answer the store gives: the numeric functions (`abs`,
    /// `sqrt`, `floor`, `ceiling`, `trunc`, `ln`, `log`, `exp`) compute a decimal as a
    /// double there, so one no double holds is refused as arithmetic's is.
    static func refusal(_ function: BuiltinFunction, _ a: Value) -> String? {
        guard [.abs, .sqrt, .floor, .ceiling, .trunc, .ln, .log, .exp].contains(function), case .decimal(let text) = a,
            let magnitude = unheldByDouble(text)
        else { return nil }
        return unheld(magnitude)
    }

    /// The words both refusals of a decimal no double holds are said in.
    private static func unheld(_ magnitude: String) -> String {
        "a decimal of about \(magnitude) is past what a double holds, and this statement computes it as one "
            + "(PostgreSQL refuses it where SQLite reads it as 0 or an infinity)"
    }

    /// Whether `a op b` may have more digits before or after the point than numeric holds,
    /// from the digits each is written with (an integer has 19 at most, no scale).
    static func mayPassBounds(_ op: ArithmeticOperator, _ a: Value, _ b: Value) -> Bool {
        func digits(_ v: Value) -> (integer: Int, scale: Int)? {
            switch v {
            case .integer, .bool: return (19, 0)
            case .decimal(let text):
                guard !text.contains(where: { $0 == "e" || $0 == "E" }) else { return nil }
                let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
                return (parts[0].count, parts.count == 2 ? parts[1].count : 0)
            default: return nil
            }
        }
        guard let x = digits(a), let y = digits(b) else { return true }
        let (integer, scale) =
            op == .multiply ? (x.integer + y.integer, x.scale + y.scale) : (max(x.integer, y.integer) + 1, max(x.scale, y.scale))
        return integer > ExactDecimal.maxIntegerDigits || scale > ExactDecimal.maxScale
    }

    /// The power of ten of `text` (`1e131071`, `-1e-16383`) when no double holds it (an
    /// infinity, or 0 for a number that is not); nil when one does.
    static func unheldByDouble(_ text: String) -> String? {
        guard let d = Double(text), d.isInfinite || d == 0 else { return nil }
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        let sign = rest.first == "-" ? "-" : ""
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
        var exponent = 0
        if let e = rest.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            guard let n = Int(rest[rest.index(after: e)...]) else { return nil }
            exponent = n
            rest = rest[..<e]
        }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts.first?.drop { $0 == "0" } ?? ""
        if !whole.isEmpty { return "\(sign)1e\(whole.count - 1 + exponent)" }
        guard parts.count == 2, let zeros = Optional(parts[1].prefix { $0 == "0" }.count), zeros < parts[1].count else {
            return nil // zero itself, which a double holds
        }
        return "\(sign)1e\(exponent - zeros - 1)"
    }
}

/// What a checked evaluation (`BoundPredicate.checkedMatches`) met that the store refuses:
/// set by the evaluator, which is not throwing, read once it is done. Unchecked: one
/// evaluation, on one thread, writes and then reads it (a task-local binds it to that
/// evaluation only).
final class EvaluationLog: @unchecked Sendable {
    var refusal: String?
    @TaskLocal static var current: EvaluationLog?
}

extension Value {
    fileprivate var isDecimalValue: Bool {
        if case .decimal = self { return true }
        return false
    }
}

extension BoundPredicate {
    /// `matches`, refusing what the store's SQL refuses for the same row (`DecimalBounds`)
    /// in one line, rather than answering from doubles where a fetch fails.
    public func checkedMatches(_ object: ManagedObject) throws -> Bool {
        let log = EvaluationLog()
        let answer = EvaluationLog.$current.withValue(log) { matches(object) }
        if let refusal = log.refusal { throw StoreError.database(message: refusal) }
        return answer
    }
}
