import QuarryEngine
import QuarryModel
import QuarryPredicates
import QuarryStore

/// One sort key: a key path, a direction, and how strings compare.
public struct SortDescriptor: Equatable, Sendable {
    /// `localized` folds case and accents (`localizedCompare:`, Swift's `.localized`);
    /// `localizedStandard` also orders digit runs by value (`localizedStandardCompare:`,
    /// Swift's `.localizedStandard`), as `StandardOrder` says.
    public enum Comparison: String, Equatable, Sendable { case binary, caseInsensitive, localized, localizedStandard }
    public var key: String
    public var ascending: Bool
    public var comparison: Comparison

    public init(key: String, ascending: Bool = true, comparison: Comparison = .binary) {
        self.key = key
        self.ascending = ascending
        self.comparison = comparison
    }

    /// `"key"` ascending, `"-key"` descending. A key may be written as a predicate writes
    /// a reserved word's (`-#first`, `owner.#size`): a sort key is always a key, so the
    /// `#` changes nothing.
    public init(parsing text: String) {
        if text.hasPrefix("-") {
            self.init(key: Self.unescaped(String(text.dropFirst())), ascending: false)
        } else if text.hasPrefix("+") {
            self.init(key: Self.unescaped(String(text.dropFirst())))
        } else {
            self.init(key: Self.unescaped(text))
        }
    }

    /// `key` without the `#` before each name of a key path (`owner.#first` is
    /// `owner.first`); any other text (an aggregate a dictionary request sorts by) as it is.
    public static func unescaped(_ key: String) -> String {
        let names = key.split(separator: ".", omittingEmptySubsequences: false)
        guard key.contains("#"), names.allSatisfy(ReservedKeys.isEscapableName) else { return key }
        return names.map { $0.hasPrefix("#") ? String($0.dropFirst()) : String($0) }.joined(separator: ".")
    }

    /// The ORDER BY term for `entity`, or an error naming the unknown key. A key path
    /// through to-one relationships (`owner.name`) sorts by the related row's value.
    /// With `joins`, a key path reads a joined table's column (the request's one JOIN per
    /// path); without, a correlated subquery.
    /// `dialect`: the store's SQL (the context's `sqlDialect`), for a sort with no context
    /// to ask (a dictionary request's outer query sorts its own columns).
    func sql(for entity: EntityDescription, qualifier: String, dialect: any SQLDialect) throws -> String {
        var none: ToOneJoins? = nil
        return try sql(for: entity, qualifier: qualifier, context: nil, dialect: dialect, joins: &none)
    }

    func sql(for entity: EntityDescription, qualifier: String, context: ObjectContext, joins: inout ToOneJoins) throws -> String {
        var some: ToOneJoins? = joins
        defer { if let some { joins = some } }
        return try sql(for: entity, qualifier: qualifier, context: context, dialect: context.sqlDialect, joins: &some)
    }

    private func sql(
        for entity: EntityDescription, qualifier: String, context: ObjectContext?, dialect: any SQLDialect,
        joins: inout ToOneJoins?
    ) throws -> String {
        var (term, attribute) = try column(for: entity, qualifier: qualifier, context: context, joins: &joins)
        // An enum's labels keep their order, folded or not.
        if comparison != .binary, attribute.type == .string, attribute.enumeration == nil {
            term = foldedSQL(term, dialect: dialect)
        }
        term = dialect.ordered(term, attribute)
        return dialect.orderTerm(term, ascending: ascending)
    }

    /// `term`, text, as this comparison orders it in SQL; `folded(_:)` in memory.
    func foldedSQL(_ term: String, dialect: any SQLDialect) -> String {
        switch comparison {
        case .binary: return term
        case .caseInsensitive: return PredicateFunctions.sqlFold(term, [.caseInsensitive], dialect: dialect)
        case .localized: return PredicateFunctions.sqlFold(term, [.caseInsensitive, .diacriticInsensitive], dialect: dialect)
        case .localizedStandard: return StandardOrder.sql(term, dialect: dialect)
        }
    }

    /// `text` as this comparison orders it, as `foldedSQL` does in SQL.
    func folded(_ text: String) -> String {
        switch comparison {
        case .binary: return text
        case .caseInsensitive: return PredicateFunctions.fold(text, [.caseInsensitive])
        case .localized: return PredicateFunctions.fold(text, [.caseInsensitive, .diacriticInsensitive])
        case .localizedStandard: return StandardOrder.key(text)
        }
    }

    /// The key's value as SQL (unfolded, no direction) and the attribute it reaches, so a
    /// row's sort values can be read by key and decoded as its object's would be.
    func column(
        for entity: EntityDescription, qualifier: String, context: ObjectContext?,
        joins: inout ToOneJoins?
    ) throws -> (sql: String, attribute: AttributeDescription) {
        let steps: [PathStep]
        let attribute: AttributeDescription
        var part: DatePart?
        if key.contains("."), let context {
            (steps, attribute, part) = try BoundPredicate.keyPathValue(key, in: entity, context: context, role: "sort")
        } else {
            guard let found = entity.attribute(named: key) else {
                if let error = FetchError.relationshipKey(key, option: "sort", of: entity, context: context) { throw error }
                if let hint = SortDescriptor.sqlHabit(key, ascending: ascending) { throw FetchError.badOption(option: "sort", reason: hint) }
                throw FetchError.unknownSortKey(
                    key: key, entity: entity.name,
                    suggestion: closestMatch(to: key, in: entity.attributeNames))
            }
            (steps, attribute) = ([], found)
        }
        var aliases = 100
        let storage = StoreMapping.storage(of: entity, in: context)
        let term =
            (steps.isEmpty ? nil : joins?.column(steps, attribute, in: storage))
            ?? pathSQL(steps, attribute, from: quoteIdentifier(qualifier), in: storage, aliases: &aliases)
        // A date's part (`time_hour.month`) sorts by its value, a number or a day.
        if let part, let context, let sql = context.sqlDialect.datePart(part, of: term) {
            return (sql, AttributeDescription(name: key, type: part.type, isOptional: true))
        }
        return (term, attribute)
    }
}
