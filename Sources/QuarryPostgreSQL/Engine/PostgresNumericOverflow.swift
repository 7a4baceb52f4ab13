import Foundation
import QuarryModel
import QuarryStore

/// A value past its `numeric(p, s)` column's precision, which PostgreSQL refuses as
/// `numeric field overflow` (22003) naming no column: the save writer keeps the row's
/// columns and values beside the refusal, and once the transaction is rolled back, the
/// column is found from the table's declared precisions (issue 45).
package struct PostgresNumericOverflow: Error {
    package let entity: String
    package let table: String
    package let columns: [String]
    package let values: [Value]
    package let error: StoreError

    /// `error` kept with what the statement wrote, when it is the overflow (a numeric's
    /// 22003, or a money column's, which the server refuses as a bigint out of range); else as it was.
    /// `object`: the object the statement writes, as the refusal names it (`docs/1`).
    static func keeping(_ error: Error, entity: String, table: String, columns: [String], values: [Value], object: String? = nil) -> Error {
        // A value of another kind the server refused (invalid json, a date it cannot
        // read): named by the attribute its parameter writes and the object it belongs
        // to, the server's words and detail kept.
        if case StoreError.engine(let failure as PostgresFailure) = error, let state = failure.sqlState, state.hasPrefix("22"),
            state != "22003", let column = column(ofParameter: failure.parameter, columns: columns, values: values)
        {
            return StoreError.database(message: "\(entity).\(column)\(object.map { " of " + $0 } ?? ""): \(failure.message)")
        }
        switch error {
        case StoreError.engine(let failure as PostgresFailure) where failure.sqlState == "22003": break
        case StoreError.database(let message) where message == PostgresConnection.bigintAdvice: break
        default: return error
        }
        return PostgresNumericOverflow(entity: entity, table: table, columns: columns, values: values, error: error as? StoreError ?? .closed)
    }

    /// The column parameter `$n` writes: a save's statement binds its columns' values
    /// first, in order (an insert's row, an update's assignments), then its key's.
    static func column(ofParameter n: Int?, columns: [String], values: [Value]) -> String? {
        guard let n, n >= 1, n <= columns.count, n <= values.count else { return nil }
        return columns[n - 1]
    }

    /// The refusal naming the column whose value does not fit, asked of the server's
    /// catalog (outside any transaction, which the refusal ended); the server's own
    /// refusal when none is found, or when a caller's transaction is still open.
    package func named(by server: PostgresConnection) -> StoreError {
        guard server.writeDepth == 0,
            let declared = try? server.execute(
                """
                SELECT attname, atttypmod, atttypid = 'money'::regtype FROM pg_attribute
                WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped
                  AND (atttypid = 'numeric'::regtype AND atttypmod >= 4 OR atttypid = 'money'::regtype)
                """, [.text(table)])
        else { return error }
        var typmods: [String: Int] = [:]
        var money: Set<String> = []
        for row in declared.rows {
            guard case .text(let name) = row[0] else { continue }
            if case .bool(true) = row[2] { money.insert(name) } else if case .integer(let typmod) = row[1] { typmods[name] = Int(typmod) }
        }
        for (column, value) in zip(columns, values) {
            if money.contains(column) {
                guard Self.overflowsMoney(value) else { continue }
                return .typeMismatch(
                    entity: entity, key: column,
                    expected: "money, from \(Self.moneyRange.lowerBound) to \(Self.moneyRange.upperBound)",
                    given: Self.shown(value))
            }
            guard let typmod = typmods[column] else { continue }
            // numeric(p, s) keeps ((p << 16) | s) + 4.
            let precision = ((typmod - 4) >> 16) & 0xFFFF
            let scale = (typmod - 4) & 0x7FF
            guard Self.overflows(value, precision: precision, scale: scale) else { continue }
            let before = precision - scale
            return .typeMismatch(
                entity: entity, key: column,
                expected: "numeric(\(precision),\(scale)), at most \(before) digit\(before == 1 ? "" : "s") before the point",
                given: Self.shown(value))
        }
        return error
    }

    /// A value as the refusal shows it: a long decimal cut, with its count of digits.
    static func shown(_ value: Value) -> String {
        let text = value.displayString
        guard text.count > 60 else { return text }
        return String(text.prefix(40)) + "… (\(text.filter(\.isNumber).count) digits)"
    }

    /// A value as the exact decimal the server reads for it: a decimal's, an integer's, a
    /// double's shortest text, text that is a decimal.
    private static func exact(_ value: Value) -> ExactDecimal? {
        switch value {
        case .integer, .real, .decimal: return DecimalText.exact(value)
        case .text(let s): return DecimalText.value(s)
        default: return nil
        }
    }

    /// Whether `value`, rounded to `scale` places, has more than `precision - scale`
    /// digits before the point, as the server rounds and refuses.
    package static func overflows(_ value: Value, precision: Int, scale: Int) -> Bool {
        guard let decimal = exact(value), scale >= 0, precision >= scale,
            let limit = try? ExactDecimal(parsing: "1e\(precision - scale)")
        else { return false }
        let rounded = decimal.rounded(toScale: scale)
        return (rounded.significand.signum() < 0 ? -rounded : rounded) >= limit
    }

    /// money is a count of cents in 64 bits (with lc_monetary's two places).
    static let moneyRange = (lowerBound: "-92233720368547758.08", upperBound: "92233720368547758.07")

    /// Whether `value` is past money's range, rounded to cents as the server rounds it.
    package static func overflowsMoney(_ value: Value) -> Bool {
        guard let decimal = exact(value), let low = DecimalText.value(moneyRange.lowerBound),
            let high = DecimalText.value(moneyRange.upperBound)
        else { return false }
        let cents = decimal.rounded(toScale: 2)
        return cents < low || cents > high
    }
}
