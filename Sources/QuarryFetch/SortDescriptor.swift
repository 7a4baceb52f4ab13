import QuarryPredicates
import QuarryStore

/// One sort key: a key path, a direction, and how strings compare.
public struct SortDescriptor: Equatable {
    public enum Comparison: String, Equatable { case binary, caseInsensitive, localized }
    public var key: String
    public var ascending: Bool
    public var comparison: Comparison

    public init(key: String, ascending: Bool = true, comparison: Comparison = .binary) {
        self.key = key; self.ascending = ascending; self.comparison = comparison
    }

    /// `"key"` ascending, `"-key"` descending.
    public init(parsing text: String) {
        if text.hasPrefix("-") { self.init(key: String(text.dropFirst()), ascending: false) }
        else if text.hasPrefix("+") { self.init(key: String(text.dropFirst())) }
        else { self.init(key: text) }
    }

    /// The ORDER BY term for `entity`, or an error naming the unknown key.
    func sql(for entity: EntityDescription, qualifier: String) throws -> String {
        guard let attribute = entity.attribute(named: key) else {
            throw FetchError.unknownSortKey(key: key, entity: entity.name,
                                            suggestion: closestMatch(to: key, in: entity.attributeNames))
        }
        var term = quoteIdentifier(qualifier) + "." + quoteIdentifier(attribute.name)
        if comparison != .binary, attribute.type == .string {
            term = PredicateFunctions.sqlFold(term, comparison == .localized ? [.caseInsensitive, .diacriticInsensitive] : [.caseInsensitive])
        }
        return term + (ascending ? " ASC" : " DESC")
    }
}
