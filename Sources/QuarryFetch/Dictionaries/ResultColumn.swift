import Foundation
import QuarryModel
import QuarryPredicates
import QuarryStore

/// One column of a dictionary result: the SQL that computes it and the keys it goes by.
/// A column is an attribute or a key path through to-one relationships (`airline.name`),
/// an expression (`arr_delay - dep_delay`), or an aggregate of one of those
/// (`sum(UnitPrice * Quantity)`, `count(distinct tailnum)`, `count(*)`), with an optional
/// `AS name`. Expressions are read by the predicate grammar and compiled as a predicate's
/// are, so their arithmetic is the same in both.
struct ResultColumn {
    var sql: String
    /// Values `?` in `sql` stands for, in order.
    var arguments: [Value] = []
    /// The key as written (`avg(dep_delay)`), then a name predicates can use (`avg_dep_delay`;
    /// `count` for `count(*)`); only its `AS` name when it has one.
    var keys: [String]
    var type: AttributeType
    /// The enum whose labels its values are (an enum attribute, its min or max): ordered
    /// by them, in `sort`, groups and `having`, as the server orders the type.
    var enumeration: EnumLabels?
    /// The aggregate function, lowercased, for an aggregate column.
    var function: String?
    /// The aggregate as written, spaced one way (`sum(a*b)`), so `having` finds it
    /// however it spaces it.
    var canonical: String?
    /// Its values are days (a column of days, `EntityStorage.dayColumns`, or its min or
    /// max), pushed to Lua as dates that print their day, as the attribute's are.
    var day = false
    /// The entity's own attribute an aggregate takes as it is (`max(Total)`, not
    /// `max(Total * 2)`): its text cells are counted beside it (`DictionaryRequest+TextCells`).
    var aggregatedKey: String?

    static let functions = ["count", "sum", "avg", "min", "max"]

    /// A property as its expression and its `AS` name, if it has one (`sum(t) AS revenue`).
    static func split(_ text: String) -> (body: String, alias: String?) {
        let spec = trimmed(text)
        if let range = spec.range(of: #"\s+[Aa][Ss]\s+[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) {
            let body = trimmed(String(spec[..<range.lowerBound]))
            let alias = spec[range].split(whereSeparator: \.isWhitespace).last.map(String.init)
            if !body.isEmpty, let alias { return (body, alias) }
        }
        return (spec, nil)
    }

    /// An aggregate call as function, argument and where the argument starts (0-based, in
    /// `body`); nil when `body` is not one call of count, sum, avg, min or max.
    static func aggregateCall(_ body: String) -> (function: String, argument: String, offset: Int)? {
        guard let open = body.firstIndex(of: "("), body.hasSuffix(")") else { return nil }
        let function = trimmed(String(body[..<open])).lowercased()
        guard functions.contains(function) else { return nil }
        let inside = body[body.index(after: open)..<body.index(before: body.endIndex)]
        // `max(a) - min(a)` also ends in ')': the parentheses must close only at the end.
        var level = 0
        for c in inside {
            if c == "(" {
                level += 1
            } else if c == ")" {
                level -= 1
                if level < 0 { return nil }
            }
        }
        let lead = inside.prefix(while: { $0 == " " }).count
        return (function, trimmed(String(inside)), body.distance(from: body.startIndex, to: open) + 1 + lead)
    }

    /// `@sum.amount` (`@count`, `@avg`, `@min`, `@max`): an aggregate as NSExpression
    /// writes it, a key path, which a dictionary request takes as the function a property
    /// writes (`sum(amount)`); nil for any other key. `@count` alone counts the rows.
    static func aggregateAsProperty(_ key: String) -> String? {
        guard key.hasPrefix("@") else { return nil }
        let parts = key.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let functions = ["@sum": "sum", "@count": "count", "@avg": "avg", "@average": "avg", "@min": "min", "@max": "max"]
        guard let function = functions[parts[0].lowercased()] else { return nil }
        let argument = parts.count > 1 ? String(parts[1]) : function == "count" ? "*" : ""
        return argument.isEmpty ? nil : "\(function)(\(argument))"
    }

    /// `text` spaced one way: the function and DISTINCT lowercased, spaces dropped.
    static func canonical(_ body: String) -> String? {
        guard let call = aggregateCall(body) else { return nil }
        var (argument, distinct) = (call.argument, "")
        if let rest = Self.afterDistinct(argument) { (argument, distinct) = (rest, "distinct ") }
        // `sum(#size)` is `sum(size)`: the `#` only says a key is meant.
        return call.function + "(" + distinct + argument.filter { !$0.isWhitespace && $0 != "#" } + ")"
    }

    /// What follows `distinct ` (any case) at the start of an argument, or nil.
    static func afterDistinct(_ argument: String) -> String? {
        let words = argument.split(maxSplits: 1, whereSeparator: \.isWhitespace)
        guard words.count == 2, words[0].lowercased() == "distinct" else { return nil }
        return trimmed(String(words[1]))
    }

    /// `joins`: the request's joins, which key paths through to-one relationships join into.
    /// `option`: the option the column was given in, for messages.
    init(_ text: String, entity: EntityDescription, context: ObjectContext, joins: inout ToOneJoins, option: String = "properties") throws {
        let (body, alias) = Self.split(text)
        if let written = Self.aggregateAsProperty(body) {
            throw FetchError.badOption(
                option: option, reason: "'\(body)' is an aggregate written as NSExpression's key path; \(option) takes it as a function: \(written)")
        }
        guard let call = Self.aggregateCall(body) else {
            let value = try Self.value(body, offset: 0, entity: entity, context: context, joins: &joins, option: option)
            (sql, arguments, type, enumeration, day) = (value.sql, value.arguments, value.type ?? .double, value.enumeration, value.day)
            // `#first` goes by `first` in the rows, as the key it names.
            let unescaped = SortDescriptor.unescaped(body)
            // An `AS` name is the row's one key (the contract's): the expression as written
            // would carry the same value twice, and print and export twice.
            keys = alias.map { [$0] } ?? [body] + (unescaped != body ? [unescaped] : [])
            return
        }
        function = call.function
        canonical = Self.canonical(body)
        if call.argument == "*" {
            guard call.function == "count" else { throw FetchError.badOption(option: option, reason: "only count takes *, in '\(body)'") }
            sql = "count(*)"
            keys = alias.map { [$0] } ?? [body, "count"]
            type = .int64
            return
        }
        var argument = call.argument
        var offset = call.offset
        var distinct = ""
        if let rest = Self.afterDistinct(argument) {
            offset += argument.count - rest.count
            (argument, distinct) = (rest, "DISTINCT ")
        }
        guard !argument.isEmpty else {
            throw FetchError.badOption(option: option, reason: "'\(body)' needs a property, as \(call.function)(price) or count(*)")
        }
        let value = try Self.value(argument, offset: offset, entity: entity, context: context, joins: &joins, option: option)
        let plain = argument.hasPrefix("#") ? String(argument.dropFirst()) : argument
        if entity.attribute(named: plain) != nil { aggregatedKey = plain }
        sql = "\(call.function)(\(distinct)\(value.sql))"
        // The min or max of an enum in its labels' order, read as its text again.
        if let labels = value.enumeration, call.function == "min" || call.function == "max" {
            sql = labels.extreme(call.function, of: value.sql, distinct: distinct)
            enumeration = labels
        }
        arguments = value.arguments
        day = value.day && (call.function == "min" || call.function == "max")
        // A key path keeps its name for predicates (`avg_dep_delay`); an expression goes by
        // what was written, or its AS name.
        let path = SortDescriptor.unescaped(argument)
        let isPath = path.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        let named = isPath ? "\(call.function)_\(distinct.isEmpty ? "" : "distinct_")\(path.replacingOccurrences(of: ".", with: "_"))" : nil
        keys = alias.map { [$0] } ?? [body] + named.map { [$0] }.orEmpty
        let integers: [AttributeType] = [.int16, .int32, .int64, .bool]
        switch call.function {
        case "count": type = .int64
        // Decimals (PostgreSQL's numeric) sum and average as numeric there, exactly.
        case "avg": type = value.type == .decimal ? .decimal : .double
        case "sum": type = value.type.map(integers.contains) == true ? .int64 : value.type == .decimal ? .decimal : .double
        default: type = value.type ?? .double
        }
        if call.function == "sum", type == .int64 { sql = context.sqlDialect.integer(sql) }
    }

    /// The refusal of a property that computes with aggregates (`sum(x)/count(x)`): one
    /// aggregate per column, as Core Data's NSExpressionDescription computes, so what works
    /// instead: the one aggregate that computes the same where there is one (`avg(x)`,
    /// `avg(x / 86400)`), else each aggregate as a property of its own, combined in Lua.
    static func combinedAggregates(_ text: String, calls: [ClosedRange<Int>]) -> String {
        let characters = Array(text)
        let written = calls.map { String(characters[$0]) }
        var reason = "'\(text)' computes with \(written.joined(separator: " and ")); a property holds one aggregate"
        if let same = averageOfSumOverCount(written, text: text, calls: calls) ?? scaledAggregate(text, call: calls[0]) {
            return reason + ": '\(same)' computes the same"
        }
        let listed = written.map { "\"\($0)\"" }.joined(separator: ", ")
        reason += ", so give each as a property of its own (properties = { \(listed) }) and combine them in Lua from each row"
        return reason
    }

    /// `sum(x) / count(x)` (spaced any way) as `avg(x)`, which computes it in SQL: nil for
    /// anything else (`count(*)` counts NULLs that `avg` leaves out).
    private static func averageOfSumOverCount(_ written: [String], text: String, calls: [ClosedRange<Int>]) -> String? {
        guard calls.count == 2, calls[0].lowerBound == 0, calls[1].upperBound == text.count - 1,
            let sum = aggregateCall(written[0]), sum.function == "sum", afterDistinct(sum.argument) == nil,
            let count = aggregateCall(written[1]), count.function == "count", count.argument != "*",
            afterDistinct(count.argument) == nil
        else { return nil }
        let between = String(Array(text)[(calls[0].upperBound + 1)..<calls[1].lowerBound]).filter { !$0.isWhitespace }
        let squeezed = { (s: String) in s.filter { !$0.isWhitespace && $0 != "#" } }
        guard between == "/", squeezed(sum.argument) == squeezed(count.argument) else { return nil }
        return "avg(\(sum.argument))"
    }

    /// `avg(x) / 86400` as the one aggregate that computes it, `avg(x / 86400)`: an
    /// aggregate at the start scaled by a positive number (`*`, `/`) or, for `avg`, `min`
    /// and `max`, moved by one (`+`, `-`); nil for anything else.
    static func scaledAggregate(_ text: String, call: ClosedRange<Int>) -> String? {
        let characters = Array(text)
        guard call.lowerBound == 0, let open = characters[call].firstIndex(of: "("), characters[call.upperBound] == ")" else { return nil }
        let name = String(characters[0..<open]).lowercased().trimmingCharacters(in: .whitespaces)
        let rest = String(characters[(call.upperBound + 1)...]).trimmingCharacters(in: .whitespaces)
        guard let op = rest.first, "*/+-".contains(op) else { return nil }
        let number = rest.dropFirst().trimmingCharacters(in: .whitespaces)
        guard let value = Double(number), value.isFinite, !number.isEmpty, number.first?.isNumber == true || number.first == ".",
            number.allSatisfy({ $0.isNumber || ".eE+-".contains($0) }) // 1e6 as 1000000
        else { return nil }
        switch op {
        case "*", "/": guard value > 0, ["avg", "sum", "min", "max"].contains(name) else { return nil }
        default: guard ["avg", "min", "max"].contains(name) else { return nil }
        }
        let argument = String(characters[(open + 1)..<call.upperBound])
        return "\(characters[0..<open].map(String.init).joined())((\(argument)) \(op) \(number))"
    }

    /// A value of one row: an attribute, a key path through to-one relationships, or an
    /// expression of them, with its SQL, arguments and type.
    private static func value(
        _ text: String, offset: Int, entity: EntityDescription, context: ObjectContext,
        joins: inout ToOneJoins, option: String
    ) throws -> (sql: String, arguments: [Value], type: AttributeType?, enumeration: EnumLabels?, day: Bool) {
        // A plain attribute reads its column as it is stored, as dictionaries always have,
        // unless the stored value alone would be read wrongly (`EntityStorage.readable`).
        let plain = text.hasPrefix("#") ? String(text.dropFirst()) : text
        if let a = entity.attribute(named: plain) {
            let storage = StoreMapping.storage(of: entity, in: context)
            return (storage.readable(storage.table, a), [], a.type, a.enumeration, storage.dayColumns.contains(a.name))
        }
        let spaced = spacedKeyPath(text, entity: entity, context: context)
        if spaced == nil { try refuseUnknownSpacedKeyPath(text, entity: entity, context: context, option: option) }
        let isName = !text.isEmpty && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        if isName {
            // A relationship is a key, though not one of values: said so, with one that is.
            if let refusal = FetchError.relationshipKey(text, option: option, of: entity, context: context) { throw refusal }
            throw FetchError.unknownKey(
                option: option, key: text, entity: entity.name,
                suggestion: closestMatch(to: text, in: entity.attributeNames))
        }
        let calls = DictionaryRequest.aggregateCalls(in: Array(text))
        if let call = calls.first {
            let inner = String(Array(text)[call])
            guard inner != text else { throw FetchError.badOption(option: option, reason: "aggregates do not nest ('\(text)' inside another)") }
            throw FetchError.badOption(option: option, reason: combinedAggregates(text, calls: calls))
        }
        // A reserved word standing as a key (`sum(size / 1048576)`) is read as `#size`.
        let escaped = ReservedKeys.escaped(text, expression: true) { entity.attribute(named: $0) != nil || entity.relationship(named: $0) != nil }
        do {
            let expression = try spaced ?? PredicateParser.parseExpression(escaped.text)
            try refuseConstant(expression, written: text, entity: entity, context: context, option: option)
            let bound = try BoundExpression(expression, entity: entity, context: context)
            if case .path(let steps, let a) = bound.operand {
                // A key path reads its column, joined, as a group's or a sort's does.
                var aliases = 300
                let storage = context.mapped(entity)
                return (
                    joins.column(steps, a, in: storage) ?? pathSQL(steps, a, from: storage.table, in: storage, aliases: &aliases), [], a.type,
                    a.enumeration, steps.last?.destinationStorage.dayColumns.contains(a.name) ?? false
                )
            }
            let fragment = bound.sql(joins: &joins, dialect: context.sqlDialect)
            return (fragment.sql, fragment.arguments, bound.type, nil, false)
        } catch var error as QuarryPredicates.PredicateError {
            error.column = error.column.map { ReservedKeys.originalColumn($0, inserted: escaped.inserted) + offset }
            // The predicate grammar lists its twenty functions; a property wants an aggregate.
            if case .unknownFunction(let name) = error.kind {
                error.message = "unknown function '\(name)'; aggregates are count, sum, avg, min and max"
            }
            throw error.given(as: option)
        }
    }

    /// The name the column has in SQL and in `having`.
    var name: String { keys.last ?? sql }
}

extension Optional where Wrapped == [String] {
    fileprivate var orEmpty: [String] { self ?? [] }
}

func trimmed(_ s: String) -> String {
    String(s.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
}
