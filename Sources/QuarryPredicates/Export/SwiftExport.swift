import QuarryStore

extension BoundPredicate {
    /// Swift source for this predicate: `NSPredicate(format:)` always, and a SwiftData
    /// `#Predicate` where every part has a Swift form (otherwise a comment says why not).
    public func swiftCode(typeName: String? = nil) -> String {
        let type = typeName ?? entity.name
        var lines = ["let predicate = NSPredicate(format: \(swiftRawStringLiteral(source.appleFormat)))"]
        let variable = type.prefix(1).lowercased() + type.dropFirst()
        do {
            let body = try SwiftPredicateWriter(variable: variable).write(root)
            lines.append("let query = #Predicate<\(type)> { \(variable) in \(body) }")
        } catch let reason as SwiftPredicateWriter.Unsupported {
            lines.append("// #Predicate: not expressible (\(reason.reason))")
        } catch {}
        return lines.joined(separator: "\n")
    }
}

/// Writes the body of a `#Predicate` closure.
private struct SwiftPredicateWriter {
    struct Unsupported: Error { let reason: String }
    let variable: String

    func write(_ node: BoundPredicate.Node) throws -> String {
        switch node {
        case .constant(let b): return b ? "true" : "false"
        case .not(let n): return "!(\(try write(n)))"
        case .and(let ns): return try ns.map { "(\(try write($0)))" }.joined(separator: " && ")
        case .or(let ns): return try ns.map { "(\(try write($0)))" }.joined(separator: " || ")
        case let .comparison(lhs, op, rhs, options):
            return try comparison(lhs, op, rhs, options)
        case .quantified:
            throw Unsupported(reason: "ANY, ALL and NONE over relationships")
        }
    }

    /// A value of the object in Swift: `item.qty`, `item.owner?.name` (optional through a
    /// to-one relationship), `item.tags.count`, `(item.qty + 1)`; `optional` when it may be nil.
    private func swiftValue(_ operand: BoundPredicate.Operand) throws -> (text: String, optional: Bool)? {
        switch operand {
        case .attribute(let a): return ("\(variable).\(a.name)", a.isOptional)
        case .path(let steps, let a):
            var text = variable + "." + steps.map(\.relationship.name).joined(separator: "?.")
            // A path to the destination's key stands for the related object (`owner == nil`).
            if let last = steps.last, a.name == last.destinationStorage.keyColumn, last.destination.attribute(named: a.name) == nil { return (text, true) }
            text += "?." + a.name
            return (text, true)
        case let .collection(function, steps, _, filter):
            guard function == .count, filter == nil, steps.count == 1 else {
                throw Unsupported(reason: "@sum, @avg, @min, @max and SUBQUERY over relationships have no #Predicate form")
            }
            return ("\(variable).\(steps[0].relationship.name).count", false)
        case let .arithmetic(op, lhs, rhs):
            guard op != .power else { throw Unsupported(reason: "** has no #Predicate operator") }
            let l = try swiftValue(lhs) ?? (try literal(lhs), false), r = try swiftValue(rhs) ?? (try literal(rhs), false)
            if l.optional || r.optional { throw Unsupported(reason: "arithmetic on a value that may be nil") }
            if op == .divide { throw Unsupported(reason: "/ divides as Double in NSPredicate but may be integer division in Swift") }
            return ("(\(l.text) \(op.rawValue) \(r.text))", false)
        case .function: throw Unsupported(reason: "NSExpression functions have no #Predicate form here")
        case .value, .list: return nil
        }
    }

    private func comparison(_ lhs: BoundPredicate.Operand, _ op: ComparisonOperator, _ rhs: BoundPredicate.Operand,
                            _ options: ComparisonOptions) throws -> String {
        // `3 < qty` is written `qty > 3`; `'ell' IN title` was bound as `title CONTAINS 'ell'`.
        var (lhs, op, rhs) = (lhs, op, rhs)
        if try swiftValue(lhs) == nil, !op.isStringOperator, op != .in, op != .between, try swiftValue(rhs) != nil {
            (lhs, op, rhs) = (rhs, op.swapped, lhs)
        }
        guard let (path, optional) = try swiftValue(lhs) else {
            throw Unsupported(reason: "a comparison of two constants")
        }
        let right = try swiftValue(rhs)?.text ?? literal(rhs)
        // An optional chain is parenthesised before `.flatMap`, so it applies to the whole chain.
        let wrapped = path.contains("?.") ? "(\(path))" : path
        switch op {
        case .equal, .notEqual:
            if !options.isEmpty { throw Unsupported(reason: "\(op.rawValue) with [c] or [d]") }
            return "\(path) \(op.rawValue) \(right)"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if !options.isEmpty { throw Unsupported(reason: "\(op.rawValue) with [c] or [d]") }
            if optional { return "\(wrapped).flatMap { $0 \(op.rawValue) \(right) } ?? false" }
            return "\(path) \(op.rawValue) \(right)"
        case .beginsWith, .contains:
            let method: String
            switch (op, options) {
            case (.beginsWith, []): method = "starts(with: %@)"
            case (.contains, []): method = "contains(%@)"
            case (.contains, [.caseInsensitive, .diacriticInsensitive]): method = "localizedStandardContains(%@)"
            default: throw Unsupported(reason: "\(op.rawValue) with these options")
            }
            let call = method.replacingOccurrences(of: "%@", with: right)
            return optional ? "\(wrapped)?.\(call) ?? false" : "\(path).\(call)"
        case .in:
            if !options.isEmpty { throw Unsupported(reason: "IN with [c] or [d]") }
            return "\(right).contains(\(path))"
        case .between:
            guard case .list(let bounds) = rhs, bounds.count == 2 else { throw Unsupported(reason: "BETWEEN without two bounds") }
            let low = try literal(.value(bounds[0])), high = try literal(.value(bounds[1]))
            if optional { return "\(wrapped).flatMap { $0 >= \(low) && $0 <= \(high) } ?? false" }
            return "\(path) >= \(low) && \(path) <= \(high)"
        case .endsWith, .like, .matches:
            throw Unsupported(reason: "\(op.rawValue) has no #Predicate form")
        }
    }

    private func literal(_ operand: BoundPredicate.Operand) throws -> String {
        switch operand {
        case .attribute, .path, .collection, .arithmetic, .function:
            return try swiftValue(operand)?.text ?? ""
        case .list(let values): return "[" + (try values.map { try literal(.value($0)) }).joined(separator: ", ") + "]"
        case .value(let v):
            switch v {
            case .null: return "nil"
            case .integer(let i): return String(i)
            case .real(let d) where d.isNaN: return "Double.nan"
            case .real(let d) where d.isInfinite: return d < 0 ? "-Double.infinity" : "Double.infinity"
            case .real(let d): return "\(d)"
            case .bool(let b): return b ? "true" : "false"
            case .text(let s): return swiftStringLiteral(s)
            case .date(let d): return "Date(timeIntervalSince1970: \(d))"
            case .blob: throw Unsupported(reason: "binary constants")
            }
        }
    }
}

/// `text` as a Swift string literal that reads back as `text` and nothing else: quotes,
/// backslashes, line breaks and every other control or line-separating character are
/// escaped, so no value can end the literal or the line (`"#); exit(42) //` stays text).
public func swiftStringLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\0": out += "\\0"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0x85 {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}

/// `text` as a raw Swift string literal (`#"..."#`, which keeps a format's quotes
/// readable), with as many `#` as it takes for no `"#…` or `\#…` in the text to end the
/// literal or interpolate; text with a line break or a control character is written as
/// an escaped literal instead (a raw literal on one line cannot hold those).
public func swiftRawStringLiteral(_ text: String) -> String {
    if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029 }) {
        return swiftStringLiteral(text)
    }
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    return hashes + "\"" + text + "\"" + hashes
}
