import QuarryModel

/// Swift's `/` (`quotient:by:`), decided here once the operands' types are known, for the
/// Swift reader and format strings alike: the reader gives every division by an integer
/// literal as a quotient and leaves the rule to this one place.
extension Binder {
    /// Between integers the fraction dropped (toward zero), by a nonzero integer constant
    /// other than -1 (Swift stops the program dividing by 0, and Int64.min by -1); between
    /// reals (or a real and an integer) `/` as reals, by anything but a constant 0 (where
    /// Swift gives an infinity and a store nil).
    func quotient(_ a: BoundPredicate.Operand, _ b: BoundPredicate.Operand, _ divisor: Expression) throws -> BoundPredicate.Operand {
        let integers: [AttributeType] = [.int16, .int32, .int64]
        let integral = [a, b].allSatisfy { o in
            if case .value(let v) = o, case .integer = v { return true }
            return BoundExpression.type(of: o).map(integers.contains) ?? false
        }
        guard integral else {
            if case .value(let v) = b, v == .integer(0) || v == .real(0) {
                throw PredicateError(
                    .unsupported, "'/' by 0: Swift gives an infinity dividing a Double by 0, where a store gives nil", column: divisor.column)
            }
            if case .value(let x) = a, case .value(let y) = b { return .value(ExpressionValues.arithmetic(.divide, x, y)) }
            return .arithmetic(.divide, a, b)
        }
        guard case .value(.integer(let d)) = b, d != 0, d != -1 else {
            throw PredicateError(
                .unsupported,
                "'/' between integers is read dividing by a nonzero integer constant other than -1 (as $0.a / 2): Swift stops the program dividing by 0, and Int64.min by -1",
                column: divisor.column)
        }
        if case .value(let x) = a { return .value(ExpressionValues.arithmetic(.quotient, x, .integer(d))) }
        return .arithmetic(.quotient, a, b)
    }
}
