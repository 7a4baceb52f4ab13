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

    /// `error` kept with what the statement wrote, when it is the overflow; else as it was.
    static func keeping(_ error: Error, entity: String, table: String, columns: [String], values: [Value]) -> Error {
        guard case StoreError.postgres(sqlState: "22003", _, _) = error else { return error }
        return PostgresNumericOverflow(entity: entity, table: table, columns: columns, values: values, error: error as? StoreError ?? .closed)
    }

    /// The refusal naming the column whose value does not fit, asked of the server's
    /// catalog (outside any transaction, which the refusal ended); the server's own
    /// refusal when none is found, or when a caller's transaction is still open.
    package func named(by server: PostgresConnection) -> StoreError {
        guard server.writeDepth == 0,
              let declared = try? server.execute("""
                  SELECT attname, atttypmod FROM pg_attribute
                  WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND atttypid = 'numeric'::regtype AND atttypmod >= 4
                  """, [.text(table)]) else { return error }
        var typmods: [String: Int] = [:]
        for row in declared.rows {
            if case .text(let name) = row[0], case .integer(let typmod) = row[1] { typmods[name] = Int(typmod) }
        }
        for (column, value) in zip(columns, values) {
            guard let typmod = typmods[column] else { continue }
            // numeric(p, s) keeps ((p << 16) | s) + 4.
            let precision = ((typmod - 4) >> 16) & 0xFFFF, scale = (typmod - 4) & 0x7FF
            guard Self.overflows(value, precision: precision, scale: scale) else { continue }
            let before = precision - scale
            return .typeMismatch(entity: entity, key: column,
                                 expected: "numeric(\(precision),\(scale)), at most \(before) digit\(before == 1 ? "" : "s") before the point",
                                 given: value.displayString)
        }
        return error
    }

    /// Whether `value`, rounded to `scale` places, has more than `precision - scale`
    /// digits before the point, as the server rounds and refuses.
    package static func overflows(_ value: Value, precision: Int, scale: Int) -> Bool {
        let text: String
        switch value {
        case .integer(let i): text = String(i)
        case .real(let d) where d.isFinite: text = "\(d)"
        case .text(let s): text = s
        default: return false
        }
        guard var decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), scale >= 0, precision >= scale else { return false }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &decimal, scale, .plain)
        let limit = pow(Decimal(10), precision - scale)
        return rounded.magnitude >= limit
    }
}
