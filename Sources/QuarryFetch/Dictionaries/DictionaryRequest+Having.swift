import QuarryModel
import QuarryPredicates
import QuarryStore

/// `having` names the result's keys: a property's `AS` name, the `count` of `count(*)`,
/// or an aggregate written as in properties (`sum(Total) > 100`, `count(*) > 1000`),
/// which is the property of the same text, or computed for the test when no property is.
extension DictionaryRequest {
    /// What the error for a key `having` cannot find says to do instead.
    static let havingRemedy = "name a property or an aggregate of properties, by its AS name or as written (count(*), sum(x))"

    /// Parses a `having` format. The predicate grammar has no `count(*)` or `avg(x)`, so
    /// each aggregate call is read as one key, named by its text (the key path
    /// `["sum(Total)"]`), which `execute(in:)` then finds among the columns.
    public static func parseHaving(_ format: String, arguments: PredicateArguments = PredicateArguments()) throws -> Predicate {
        var characters = Array(format)
        var calls: [String: String] = [:]
        // From the last, so the ranges before it stay where they are.
        for range in aggregateCalls(in: characters).reversed() {
            // The same length as the call, so columns in messages stay where they were.
            let text = String(characters[range])
            var name = "_q\(calls.count + 1)"
            name += String(repeating: "_", count: max(0, text.count - name.count))
            calls[name] = text
            characters.replaceSubrange(range, with: Array(name))
        }
        // `first`, `last` and `size` are the grammar's words only inside `[ ]`: elsewhere
        // they name a result's key, as `#first` would.
        let escaped = ReservedKeys.escaped(String(characters), expression: false) { _ in true }
        let predicate: Predicate
        do {
            predicate = try PredicateParser.parse(escaped.text, arguments: arguments)
        } catch var error as PredicateError {
            error.column = error.column.map { ReservedKeys.originalColumn($0, inserted: escaped.inserted) }
            // The predicate grammar lists its twenty functions; having wants an aggregate.
            if case .unknownFunction(let name) = error.kind {
                error.message =
                    "unknown function '\(name)'; "
                    + havingRemedy.replacingOccurrences(of: "(count(*), sum(x))", with: "(count, sum, avg, min or max)")
            }
            for (name, text) in calls { error.message = error.message.replacingOccurrences(of: name, with: text) }
            throw error.given(as: "having")
        }
        return predicate.mappingKeyPaths { path in
            guard path.components.count == 1, let text = calls[path.components[0]] else { return path }
            return KeyPath([text], column: path.column)
        }
    }

    /// Where `characters` call count, sum, avg, min or max, in order (outside string
    /// literals; the predicate grammar's `sum:(x)` is not one).
    static func aggregateCalls(in characters: [Character]) -> [ClosedRange<Int>] {
        var calls: [ClosedRange<Int>] = []
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c == "'" || c == "\"" {
                i = skipQuoted(characters, from: i)
                continue
            }
            guard c.isLetter, i == 0 || !continuesName(characters[i - 1]) else {
                i += 1
                continue
            }
            var end = i
            while end < characters.count, continuesName(characters[end]) { end += 1 }
            var open = end
            while open < characters.count, characters[open] == " " { open += 1 }
            guard ResultColumn.functions.contains(String(characters[i..<end]).lowercased()), open < characters.count,
                characters[open] == "(", let close = closing(characters, from: open)
            else {
                i = end
                continue
            }
            calls.append(i...close)
            i = close + 1
        }
        return calls
    }

    /// The index just past the string literal that starts at `start`.
    private static func skipQuoted(_ characters: [Character], from start: Int) -> Int {
        var i = start + 1
        while i < characters.count, characters[i] != characters[start] {
            i += characters[i] == "\\" ? 2 : 1
        }
        return i + 1
    }

    private static func continuesName(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "." || c == "$" || c == "@" || c == "%" }

    /// The index of the `)` that closes the `(` at `open`, past string literals.
    private static func closing(_ characters: [Character], from open: Int) -> Int? {
        var level = 0
        var i = open
        while i < characters.count {
            switch characters[i] {
            case "'", "\"":
                i = skipQuoted(characters, from: i)
                continue
            case "(": level += 1
            case ")":
                level -= 1
                if level == 0 { return i }
            default: break
            }
            i += 1
        }
        return nil
    }
}

/// A `having` predicate bound to a dictionary result: its keys renamed to the columns
/// they name, and the aggregates it tests that no property computes.
struct BoundHaving {
    var predicate: Predicate
    var hidden: [ResultColumn] = []

    init(
        _ having: Predicate, columns: [ResultColumn], entity: EntityDescription, context: ObjectContext,
        joins: inout ToOneJoins
    ) throws {
        var hidden: [ResultColumn] = []
        var failure: Error?
        predicate = having.mappingKeyPaths { path in
            guard failure == nil else { return path }
            let text = path.string
            do {
                if let canonical = ResultColumn.canonical(text) {
                    if let column = (columns + hidden).first(where: { $0.canonical == canonical }) {
                        return KeyPath([column.name], column: path.column)
                    }
                    var column = try ResultColumn(text, entity: entity, context: context, joins: &joins, option: "having")
                    column.keys = [text, "quarry_having_\(hidden.count + 1)"]
                    hidden.append(column)
                    return KeyPath([column.name], column: path.column)
                }
                if let column = columns.first(where: { $0.keys.contains(text) }) { return KeyPath([column.name], column: path.column) }
                throw PredicateError(
                    .unknownKey, "unknown key path '\(text)' in the result; \(DictionaryRequest.havingRemedy)", column: path.column,
                    suggestion: closestMatch(to: text, in: columns.flatMap(\.keys))
                ).given(as: "having")
            } catch {
                failure = error
                return path
            }
        }
        if let failure { throw failure }
        self.hidden = hidden
    }
}

extension Predicate {
    /// The predicate with each key path replaced by `transform`'s.
    func mappingKeyPaths(_ transform: (KeyPath) -> KeyPath) -> Predicate {
        switch self {
        case .constant: return self
        case .not(let p): return .not(p.mappingKeyPaths(transform))
        case .and(let ps): return .and(ps.map { $0.mappingKeyPaths(transform) })
        case .or(let ps): return .or(ps.map { $0.mappingKeyPaths(transform) })
        case .comparison(var c):
            c.lhs = c.lhs.mappingKeyPaths(transform)
            c.rhs = c.rhs.mappingKeyPaths(transform)
            return .comparison(c)
        }
    }
}

extension Expression {
    func mappingKeyPaths(_ transform: (KeyPath) -> KeyPath) -> Expression {
        switch self {
        case .keyPath(let path): return .keyPath(transform(path))
        case .constant, .object: return self
        case .aggregate(let elements, let column): return .aggregate(elements.map { $0.mappingKeyPaths(transform) }, column: column)
        case .subqueryCount(let collection, let variable, let predicate, let column):
            return .subqueryCount(
                collection: transform(collection), variable: variable, predicate: predicate.mappingKeyPaths(transform), column: column)
        case .arithmetic(let op, let l, let r, let column):
            return .arithmetic(op, l.mappingKeyPaths(transform), r.mappingKeyPaths(transform), column: column)
        case .negate(let e, let column): return .negate(e.mappingKeyPaths(transform), column: column)
        case .index(let e, let index, let column): return .index(e.mappingKeyPaths(transform), index, column: column)
        case .function(let f, let arguments, let column): return .function(f, arguments.map { $0.mappingKeyPaths(transform) }, column: column)
        case .conditional(let p, let a, let b, let column):
            return .conditional(p.mappingKeyPaths(transform), a.mappingKeyPaths(transform), b.mappingKeyPaths(transform), column: column)
        }
    }
}
