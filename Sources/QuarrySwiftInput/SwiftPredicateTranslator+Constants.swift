import Foundation
import QuarryModel
import QuarryPredicates
import QuarryStore
import SwiftSyntax

/// The values a `#Predicate` captures, as `p:swift()` writes them in `let`s before it:
/// literals and arrays of them, `Date(timeIntervalSinceReferenceDate:)` and
/// `Date(timeIntervalSince1970:)`, `UUID(uuid: (...))`, `UUID(uuidString: "...")!`,
/// `Data([...])`, `Double.nan` and
/// `Double.infinity`; `Date.now`, `Date()` and dates computed from them
/// (`computedDate`). Nothing is run: each form is read as the value it spells.
extension SwiftPredicateTranslator {
    mutating func constant(_ node: ExprSyntax) throws -> PredicateArgument {
        if let array = node.as(ArrayExprSyntax.self) {
            return .list(
                try array.elements.map { element in
                    guard case .value(let v) = try constant(element.expression) else { throw refuse("a list of lists is no captured value", element) }
                    return v
                })
        }
        if let member = node.as(MemberAccessExprSyntax.self), member.base?.trimmedDescription == "Double" {
            switch member.declName.baseName.text {
            case "nan": return .value(.real(.nan))
            case "infinity": return .value(.real(.infinity))
            default: break
            }
        }
        if let prefix = node.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-",
            let member = prefix.expression.as(MemberAccessExprSyntax.self), member.trimmedDescription == "Double.infinity"
        {
            return .value(.real(-.infinity))
        }
        // `URL(string: "...")!`: the URL's text, which a string attribute holds;
        // `UUID(uuidString: "...")!`, as an app spells a UUID it knows.
        if let unwrapped = node.as(ForceUnwrapExprSyntax.self), let call = unwrapped.expression.as(FunctionCallExprSyntax.self),
            ["URL", "UUID"].contains(call.calledExpression.trimmedDescription)
        {
            return try constant(ExprSyntax(call))
        }
        if let call = node.as(FunctionCallExprSyntax.self) {
            if let date = try computedDate(call) { return .value(date) }
            let callee = call.calledExpression.trimmedDescription
            let labels = call.arguments.map { $0.label?.text }
            switch (callee, labels) {
            case ("URL", ["string"]):
                guard let literal = call.arguments.first?.expression.as(StringLiteralExprSyntax.self), let text = literal.representedLiteralValue,
                    URL(string: text) != nil
                else { throw refuse("URL(string:) is read with a string literal that is a URL", call) }
                return .value(.text(text))
            case ("UUID", ["uuidString"]):
                // As `UUID(uuid:)` reads, in `uuidString`'s own spelling (upper-case hex).
                guard let literal = call.arguments.first?.expression.as(StringLiteralExprSyntax.self),
                    let text = literal.representedLiteralValue, let uuid = UUID(uuidString: text)
                else { throw refuse("UUID(uuidString:) is read with a string literal that is a UUID", call) }
                return .value(.text(uuid.uuidString))
            case ("Date", []): return .value(Self.currentTime)
            // A new random UUID, as the app's `UUID()` is one no stored object has yet.
            case ("UUID", []): return .value(.text(UUID().uuidString))
            case ("Date", ["timeIntervalSinceReferenceDate"]), ("Date", ["timeIntervalSince1970"]):
                let seconds: Double
                switch try call.arguments.first.map({ try value($0.expression) }) {
                case .constant(.integer(let n), _)?: seconds = Double(n)
                case .constant(.real(let d), _)?: seconds = d
                default: throw refuse("a Date is read from a number of seconds", call)
                }
                return .value(.date(labels == ["timeIntervalSince1970"] ? seconds : seconds + referenceDateOffset))
            case ("UUID", ["uuid"]):
                guard let tuple = call.arguments.first?.expression.as(TupleExprSyntax.self), tuple.elements.count == 16 else {
                    throw refuse("UUID(uuid:) takes 16 bytes", call)
                }
                let bytes = try tuple.elements.map { try byte($0.expression) }
                let hex = bytes.map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }
                let groups = [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }
                return .value(.text(groups.joined(separator: "-")))
            case ("Data", [nil]):
                guard let array = call.arguments.first?.expression.as(ArrayExprSyntax.self) else {
                    throw refuse("Data is read from an array of bytes", call)
                }
                return .value(.blob(try array.elements.map { try byte($0.expression) }))
            case ("Double", [nil]), ("Float", [nil]), ("CGFloat", [nil]), ("Int", [nil]), ("Int16", [nil]), ("Int32", [nil]), ("Int64", [nil]):
                return .value(try typedNumber(callee, call))
            default:
                throw refuse(
                    "\(Self.oneLine(callee))(...) is no captured value Quarry reads (\(Self.capturedForms))",
                    call)
            }
        }
        // `obj.k`: a property of a value only the app has (a struct's fields are read, `field`).
        if let member = node.as(MemberAccessExprSyntax.self), let base = member.base?.as(DeclReferenceExprSyntax.self),
            base.baseName.text.first?.isLowercase == true, scopeIndex(of: base.baseName.text) == nil,
            structs[Self.unescaped(base.baseName.text)] == nil
        {
            throw refuse(
                "\(describe(member)) is a value of the app's ('\(base.baseName.text)'), which Quarry has not: give the value by name, as a captured value",
                member)
        }
        guard case .constant(let v, _) = try value(node) else { throw refuse("a captured value is a literal, a date, a UUID, data or a list", node) }
        return .value(v)
    }

    /// What a captured `let` may hold, as refusals list it: every form `constant` reads.
    static let capturedForms =
        "literals, Float(22.5), Date(timeIntervalSinceReferenceDate:), Date(timeIntervalSince1970:), Date.now, Date(), "
        + "Date(timeIntervalSinceNow:), a date's .addingTimeInterval(_:), Int64(3), Double.nan, arrays of them, UUID(uuid:), "
        + "UUID(uuidString:)!, UUID(), URL(string:)!, Data([...])"

    /// `Date()` and `Date.now`: the time the `#Predicate` is read, as the app's is the time it runs.
    static var currentTime: Value { .date(Date().timeIntervalSince1970) }

    /// `Float(22.5)`, `Int64(3)`: a number literal given its type, as an app's `let` for a
    /// Float or integer attribute writes it. A Float is the value the app holds, rounded to
    /// single precision (`Float(22.1)` is 22.100000381469727), as a Float attribute's
    /// stored values are.
    private mutating func typedNumber(_ type: String, _ call: FunctionCallExprSyntax) throws -> Value {
        let integral = type.hasPrefix("Int")
        let bounds: ClosedRange<Int64> =
            switch type {
            case "Int16": Int64(Int16.min)...Int64(Int16.max)
            case "Int32": Int64(Int32.min)...Int64(Int32.max)
            default: Int64.min...Int64.max
            }
        guard call.arguments.count == 1, let argument = call.arguments.first else {
            throw refuse("\(type)(...) is read with one number literal", call)
        }
        switch try value(argument.expression) {
        case .constant(.integer(let n), _) where !integral || bounds.contains(n):
            return integral ? .integer(n) : .real(type == "Float" ? Double(Float(n)) : Double(n))
        case .constant(.real(let d), _) where !integral:
            return .real(type == "Float" ? Double(Float(d)) : d)
        default:
            throw refuse("\(type)(...) is read with a number literal\(integral ? " in \(type)'s range" : "")", call)
        }
    }

    private mutating func byte(_ node: ExprSyntax) throws -> UInt8 {
        guard case .constant(.integer(let n), _) = try value(node), let byte = UInt8(exactly: n) else {
            throw refuse("expected a byte, 0 to 255", node)
        }
        return byte
    }
}
