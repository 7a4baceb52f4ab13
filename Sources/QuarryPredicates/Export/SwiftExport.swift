import QuarryStore

extension BoundPredicate {
    /// Swift source for this predicate: `NSPredicate(format:)` always, and a SwiftData
    /// `#Predicate` where every part has a Swift form (otherwise a comment says why not).
    public func swiftCode(typeName: String? = nil) -> String {
        let type = typeName ?? entity.name
        var lines = ["let predicate = NSPredicate(format: #\"\(source.appleFormat)\"#)"]
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

    private func comparison(_ lhs: BoundPredicate.Operand, _ op: ComparisonOperator, _ rhs: BoundPredicate.Operand,
                            _ options: ComparisonOptions) throws -> String {
        guard case .attribute(let attribute) = lhs else {
            throw Unsupported(reason: "a constant on the left of \(op.rawValue)")
        }
        let path = "\(variable).\(attribute.name)"
        switch op {
        case .equal, .notEqual:
            if !options.isEmpty { throw Unsupported(reason: "\(op.rawValue) with [c] or [d]") }
            return "\(path) \(op.rawValue) \(try literal(rhs))"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            if !options.isEmpty { throw Unsupported(reason: "\(op.rawValue) with [c] or [d]") }
            if attribute.isOptional { return "\(path).flatMap { $0 \(op.rawValue) \(try literal(rhs)) } ?? false" }
            return "\(path) \(op.rawValue) \(try literal(rhs))"
        case .beginsWith, .contains:
            let method: String
            switch (op, options) {
            case (.beginsWith, []): method = "starts(with: %@)"
            case (.contains, []): method = "contains(%@)"
            case (.contains, [.caseInsensitive, .diacriticInsensitive]): method = "localizedStandardContains(%@)"
            default: throw Unsupported(reason: "\(op.rawValue) with these options")
            }
            let call = method.replacingOccurrences(of: "%@", with: try literal(rhs))
            return attribute.isOptional ? "\(path)?.\(call) ?? false" : "\(path).\(call)"
        case .in:
            if !options.isEmpty { throw Unsupported(reason: "IN with [c] or [d]") }
            return "\(try literal(rhs)).contains(\(path))"
        case .between:
            guard case .list(let bounds) = rhs, bounds.count == 2 else { throw Unsupported(reason: "BETWEEN without two bounds") }
            let low = try literal(.value(bounds[0])), high = try literal(.value(bounds[1]))
            if attribute.isOptional { return "\(path).flatMap { $0 >= \(low) && $0 <= \(high) } ?? false" }
            return "\(path) >= \(low) && \(path) <= \(high)"
        case .endsWith, .like, .matches:
            throw Unsupported(reason: "\(op.rawValue) has no #Predicate form")
        }
    }

    private func literal(_ operand: BoundPredicate.Operand) throws -> String {
        switch operand {
        case .attribute(let a): return "\(variable).\(a.name)"
        case .path, .collection: throw Unsupported(reason: "key paths through relationships")
        case .arithmetic, .function: throw Unsupported(reason: "arithmetic")
        case .list(let values): return "[" + (try values.map { try literal(.value($0)) }).joined(separator: ", ") + "]"
        case .value(let v):
            switch v {
            case .null: return "nil"
            case .integer(let i): return String(i)
            case .real(let d): return "\(d)"
            case .bool(let b): return b ? "true" : "false"
            case .text(let s): return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            case .date(let d): return "Date(timeIntervalSince1970: \(d))"
            case .blob: throw Unsupported(reason: "binary constants")
            }
        }
    }
}
