import QuarryModel
import QuarryStore

/// Constants as the `#Predicate` writer takes them for an operator.
extension SwiftPredicateWriter {
    /// `operand` as a constant of an integer `type` (`Int`, `Int16`, ...) can be written:
    /// a whole number such as `2.0` as `2` (a float literal is no integer in Swift); a
    /// fraction is refused, since Swift compares an integer only with an integer.
    static func integral(_ operand: BoundPredicate.Operand, as type: String?) throws -> BoundPredicate.Operand {
        guard let type, type.hasPrefix("Int") else { return operand }
        func whole(_ value: Value) throws -> Value {
            guard case .real(let d) = value else { return value }
            guard d.isFinite, d.rounded() == d, let i = Int64(exactly: d) else {
                throw SwiftExportRefusal("\(type) compared with \(d): Swift compares an integer only with an integer")
            }
            return .integer(i)
        }
        switch operand {
        case .value(let v): return .value(try whole(v))
        case .list(let values): return .list(try values.map(whole))
        default: return operand
        }
    }

    /// Whether `operand` is not a nonzero integer constant, the only divisor Swift's `%`
    /// is written with.
    static func zeroOrNotInteger(_ operand: BoundPredicate.Operand) -> Bool {
        guard case .value(.integer(let n)) = operand else { return true }
        return n == 0
    }
}
