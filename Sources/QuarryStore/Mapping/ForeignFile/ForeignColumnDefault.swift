import Foundation
import QuarryModel

/// A column's `DEFAULT` in a file Quarry did not create, as a new object's starting value:
/// Quarry writes every column of a new row, so the value SQLite would have filled in is
/// the object's from `:new` on, as a Core Data model's default is (`Products:new{}` in
/// Northwind starts with `Discontinued = "0"`, where its NOT NULL once refused the save).
/// Only what SQLite's grammar calls a literal, or `CURRENT_TIME`/`_DATE`/`_TIMESTAMP`, is
/// evaluated: an expression in parentheses may call any function, and a file's text
/// must not make Quarry call one.
package enum ForeignColumnDefault {
    package enum Kind: Equatable {
        /// The same value for every row: the attribute's `defaultValue`.
        case constant(Value)
        /// A clock SQLite reads at each insert: read when an object is made.
        case atInsert(String)
    }

    package static let clocks: Set<String> = ["CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP"]

    /// What `declared` (the `dflt_value` of `PRAGMA table_info`) gives an attribute of `type`;
    /// nil when it is no literal, or a value the attribute cannot hold. A literal is read
    /// here, as SQLite reads it, so opening a file runs no query per column.
    package static func kind(of declared: String, as type: AttributeType) -> Kind? {
        let text = declared.trimmingSpaces
        if clocks.contains(text.uppercased()) { return .atInsert(text.uppercased()) }
        return literal(text).flatMap { value($0, as: type) }.map(Kind.constant)
    }

    /// The value of a number, a quoted string, a blob, NULL, TRUE or FALSE (signed numbers
    /// included), as SQLite reads the literal: an integer that fits 64 bits is an
    /// integer, any other number a real, TRUE and FALSE 1 and 0. Nil for anything else.
    package static func literal(_ text: String) -> Value? {
        switch text.uppercased() {
        case "NULL": return .null
        case "TRUE": return .integer(1)
        case "FALSE": return .integer(0)
        default: break
        }
        if text.count >= 2, text.first == "'", text.last == "'" {
            // One string: every inner quote doubled.
            let inner = text.dropFirst().dropLast()
            guard !inner.replacingOccurrences(of: "''", with: "").contains("'") else { return nil }
            return .text(inner.replacingOccurrences(of: "''", with: "'"))
        }
        if text.count >= 3, text.uppercased().hasPrefix("X'"), text.last == "'" {
            let hex = Array(text.dropFirst(2).dropLast())
            guard hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else { return nil }
            return .blob(stride(from: 0, to: hex.count, by: 2).compactMap { UInt8(String(hex[$0...$0 + 1]), radix: 16) })
        }
        var number = Substring(text)
        let negative = number.first == "-"
        if let sign = number.first, sign == "+" || sign == "-" { number = number.dropFirst() }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
            let magnitude = Double(number)
        else { return nil }
        if number.allSatisfy(\.isNumber), let i = Int64(negative ? "-" + number : String(number)) { return .integer(i) }
        return .real(negative ? -magnitude : magnitude)
    }

    /// The value as the column's affinity would keep it, if the attribute's type holds it.
    package static func value(_ raw: Value, as type: AttributeType) -> Value? {
        var value = raw
        switch (type, raw) {
        case (.int16, .text(let s)), (.int32, .text(let s)), (.int64, .text(let s)):
            if let i = Int64(s) { value = .integer(i) }
        case (.double, .text(let s)), (.decimal, .text(let s)):
            if let d = Double(s) { value = .real(d) }
        case (.bool, .integer(let i)): value = .bool(i != 0)
        case (.bool, .text(let s)) where s == "0" || s == "1": value = .bool(s == "1")
        case (.string, .integer(let i)): value = .text(String(i))
        default: break
        }
        guard !value.isNull, case .success(let typed) = type.coerce(value) else { return nil }
        return typed
    }
}
