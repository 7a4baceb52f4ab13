import Foundation
/// Renders an archived `NSPredicate`/`NSExpression` (from a fetch request template, a fetched
/// property, a fetch index or a derived attribute) back into a format string. None of the
/// real models at hand archives one, so the keys are Foundation's documented coding keys
/// (`NSSubpredicates`, `NSCompoundPredicateType`, `NSLeftExpression`, `NSRightExpression`,
/// `NSPredicateOperator` with `NSOperatorType`/`NSModifier`/`NSOptions`, `NSExpressionType`,
/// `NSConstantValue`, `NSKeyPath`, `NSVariable`, `NSSelectorName`/`NSArguments`); whatever
/// else is met makes the predicate `.unsupported`, naming the class, rather than failing the
/// model. Predicates nest, so the walk is bounded in depth and refuses cycles; a part shared
/// by many (a DAG) is rendered at each use, so the text each part adds is spent from the
/// archive's work budget (`KeyedArchive.work`), which stops an exponential expansion.
import QuarryModel

struct PredicateRenderer {
    package let archive: KeyedArchive
    package static let maxDepth = 64

    /// Something this renderer does not know: the predicate is kept as unsupported.
    struct Unsupported: Error { let what: String }

    package func predicate(_ object: ArchivedObject) throws -> CoreDataPredicate {
        var path: Set<Int> = []
        do {
            return .format(try predicate(object, path: &path))
        } catch let unsupported as Unsupported {
            return .unsupported(unsupported.what)
        }
    }

    /// An expression's format text; an expression it cannot render is written as `<Class>`.
    package func expression(_ object: ArchivedObject) throws -> String {
        var path: Set<Int> = []
        do {
            return try expression(object, path: &path)
        } catch let unsupported as Unsupported {
            return "<\(unsupported.what)>"
        }
    }

    private func enter(_ object: ArchivedObject, _ path: inout Set<Int>) throws {
        guard path.count < PredicateRenderer.maxDepth else {
            throw archive.broken("predicate nested deeper than \(PredicateRenderer.maxDepth) levels")
        }
        guard path.insert(object.index).inserted else { throw archive.broken("predicate object \(object.index) contains itself") }
    }

    private func predicate(_ object: ArchivedObject, path: inout Set<Int>) throws -> String {
        try enter(object, &path)
        defer { path.remove(object.index) }
        switch object.className {
        case "NSTruePredicate": return "TRUEPREDICATE"
        case "NSFalsePredicate": return "FALSEPREDICATE"
        case "NSCompoundPredicate":
            let parts = try object.elements("NSSubpredicates").map { n -> String in
                var sub = try predicate(archive.instance(n), path: &path)
                try archive.spend(sub.utf8.count)
                if sub.contains(" ") { sub = "(\(sub))" }
                return sub
            }
            switch try object.int("NSCompoundPredicateType") ?? -1 {
            case 0:
                guard parts.count == 1 else { throw Unsupported(what: "NOT with \(parts.count) operands") }
                return "NOT " + parts[0]
            case 1: return parts.isEmpty ? "TRUEPREDICATE" : parts.joined(separator: " AND ")
            case 2: return parts.isEmpty ? "FALSEPREDICATE" : parts.joined(separator: " OR ")
            case let t: throw Unsupported(what: "NSCompoundPredicate type \(t)")
            }
        case "NSComparisonPredicate":
            guard let left = try object.object("NSLeftExpression"), let right = try object.object("NSRightExpression") else {
                throw Unsupported(what: "NSComparisonPredicate without both expressions")
            }
            let op = try object.object("NSPredicateOperator")
            let type = try op?.int("NSOperatorType") ?? object.int("NSPredicateOperatorType") ?? -1
            guard let symbol = PredicateRenderer.operators[type] else { throw Unsupported(what: "predicate operator \(type)") }
            let options = try op?.int("NSOptions") ?? object.int("NSOptions") ?? 0
            let flags = (options & 1 != 0 ? "c" : "") + (options & 2 != 0 ? "d" : "")
            let modifier: String
            switch try op?.int("NSModifier") ?? object.int("NSModifier") ?? 0 {
            case 1: modifier = "ALL "
            case 2: modifier = "ANY "
            default: modifier = ""
            }
            let lhs = try expression(left, path: &path)
            try archive.spend(lhs.utf8.count)
            let rhs = try expression(right, path: &path)
            try archive.spend(rhs.utf8.count)
            return "\(modifier)\(lhs) \(symbol)\(flags.isEmpty ? "" : "[\(flags)]") \(rhs)"
        default:
            throw Unsupported(what: object.className)
        }
    }

    private func expression(_ object: ArchivedObject, path: inout Set<Int>) throws -> String {
        try enter(object, &path)
        defer { path.remove(object.index) }
        switch object.className {
        case "NSSelfExpression": return "SELF"
        case "NSConstantValueExpression":
            return try constant(object, "NSConstantValue", path: &path)
        case "NSKeyPathExpression":
            if let keyPath = try object.string("NSKeyPath") { return keyPath }
            throw Unsupported(what: "NSKeyPathExpression without NSKeyPath")
        case "NSVariableExpression":
            guard let name = try object.string("NSVariable") else { throw Unsupported(what: "NSVariableExpression without NSVariable") }
            return "$" + name
        case "NSFunctionExpression":
            let selector = try object.string("NSSelectorName") ?? ""
            let arguments = try object.elements("NSArguments").map { n -> String in
                let text = try expression(archive.instance(n), path: &path)
                try archive.spend(text.utf8.count)
                return text
            }
            if selector == "valueForKey:" || selector == "valueForKeyPath:", arguments.count == 1 {
                // A key path: the argument is a constant string, written here bare.
                let key = arguments[0].hasPrefix("\"") ? String(arguments[0].dropFirst().dropLast()) : arguments[0]
                return key
            }
            guard !selector.isEmpty else { throw Unsupported(what: "NSFunctionExpression without NSSelectorName") }
            return "FUNCTION(SELF, \"\(selector)\"\(arguments.map { ", " + $0 }.joined()))"
        case "NSAggregateExpression":
            let items = try object.elements("NSCollection").map { n -> String in
                let text = try expression(archive.instance(n), path: &path)
                try archive.spend(text.utf8.count)
                return text
            }
            return "{" + items.joined(separator: ", ") + "}"
        default:
            throw Unsupported(what: object.className)
        }
    }

    /// The constant under `key`: inline, or the object a UID names.
    private func constant(_ owner: ArchivedObject, _ key: String, path: inout Set<Int>) throws -> String {
        guard let ref = owner.fields[key] else { return "nil" }
        guard let n = ref.uid else { return try literal(ref) }
        guard n >= 0, n < archive.objects.count else {
            throw archive.broken("\(owner.className) (object \(owner.index)) key \(key): UID \(n) is out of range")
        }
        return try constant(at: n, path: &path)
    }

    private func constant(at n: Int, path: inout Set<Int>) throws -> String {
        if n == 0 { return "nil" }
        let value = archive.objects[n]
        guard let fields = value.dictionary, fields["$class"] != nil else { return try literal(value) }
        let object = try archive.instance(n)
        if let time = object.fields["NS.time"]?.double { return "CAST(\(time), \"NSDate\")" }
        if object.fields["NS.string"] != nil, let s = try archive.string(at: n, context: "constant") { return PredicateRenderer.quoted(s) }
        if object.fields["NS.objects"] != nil, object.fields["NS.keys"] == nil {
            try enter(object, &path)
            defer { path.remove(object.index) }
            let items = try object.elements().map { n -> String in
                let text = try constant(at: n, path: &path)
                try archive.spend(text.utf8.count)
                return text
            }
            return "{" + items.joined(separator: ", ") + "}"
        }
        throw Unsupported(what: "a constant of class \(object.className)")
    }

    private func literal(_ value: Plist) throws -> String {
        switch value {
        case .bool(let b): return b ? "YES" : "NO"
        case .integer(let n): return String(n)
        case .real(let d): return String(d)
        case .string(let s): return s == "$null" ? "nil" : PredicateRenderer.quoted(s)
        default: throw Unsupported(what: "a constant of \(value.kind)")
        }
    }

    package static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `NSPredicate.Operator` raw values and their format-string spelling.
    package static let operators: [Int: String] = [
        0: "<", 1: "<=", 2: ">", 3: ">=", 4: "==", 5: "!=", 6: "MATCHES", 7: "LIKE",
        8: "BEGINSWITH", 9: "ENDSWITH", 10: "IN", 99: "CONTAINS", 100: "BETWEEN"
    ]
}
