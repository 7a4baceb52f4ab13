/// Sort keys written as Swift: `\.time`, `\Quake.time`, `SortDescriptor(\.time, order:
/// .reverse)`, `SortDescriptor(\.name, comparator: .localizedStandard)`, or an array of
/// them, as `@Query(sort:)` and `FetchDescriptor(sortBy:)` take them. Read
/// by `QuarrySwiftInput` (swift-syntax), here told from Quarry's own keys.
public enum SwiftSortReader {
    public struct Key: Equatable, Codable {
        public var key: String
        public var ascending: Bool
        /// `localizedStandard` for `.localizedStandard`, `localized` for `.localized`
        /// (`SortDescriptor.Comparison`'s names); `stringDefault` for a
        /// `SortDescriptor` that names none, which Foundation compares `.localizedStandard`
        /// where the key is a String and by its `Comparable` order otherwise; nil for
        /// `.lexical` and a bare key path (`\.name`).
        public var comparator: String?

        /// The comparator of a `SortDescriptor(\.key)` written without one.
        public static let stringDefault = "stringDefault"

        public init(key: String, ascending: Bool, comparator: String?) {
            self.key = key
            self.ascending = ascending
            self.comparator = comparator
        }
    }

    /// Whether `text` is Swift rather than Quarry's `"key"` / `"-key"`: it starts with
    /// `\`, `SortDescriptor(` or `[`, none of which starts a key.
    public static func isSwift(_ text: String) -> Bool {
        let rest = text.drop(while: \.isWhitespace)
        return rest.hasPrefix("\\") || rest.hasPrefix("SortDescriptor") || rest.hasPrefix("[")
    }
}
