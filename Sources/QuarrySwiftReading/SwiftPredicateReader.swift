import QuarryPredicates

/// A Swift `#Predicate`, told from a format string and read into Quarry's predicate tree.
/// What needs no Swift parser is here: whether a text is Swift, what a reading gives, and
/// the check of its `<T>` against the entity fetched. The reading itself is
/// `QuarrySwiftInput`'s (swift-syntax), in the `quarry-swift-reader` process or, for
/// the tests, in this one (`SwiftInputReading`).
public enum SwiftPredicateReader {
    /// What a `#Predicate` was read into: the type named in `<...>` (nil when none) and
    /// the predicate.
    public struct Read: Equatable, Codable {
        public var typeName: String?
        public var predicate: Predicate
        /// Where the type in `<...>` stands.
        public var typeColumn: Int?
        /// For an `NSPredicate(format:)`, the first `#keyPath(T.key)` among its arguments,
        /// as written: its `T` is `typeName`, at `typeColumn`. Nil for a `#Predicate<T>`.
        public var keyPath: String?

        public init(typeName: String?, predicate: Predicate, typeColumn: Int?, keyPath: String? = nil) {
            self.typeName = typeName
            self.predicate = predicate
            self.typeColumn = typeColumn
            self.keyPath = keyPath
        }
    }

    /// Whether `text` is a Swift `#Predicate` rather than a format string: it starts
    /// with `#Predicate` followed by `<` and a type and `>`, or by `{`; or with `let name`
    /// followed by `:` or `=` (the captured values `p:swift()` writes before its macro);
    /// or with `NSPredicate(format:`, as an app writes one in place.
    /// No format string starts so: `#Predicate` there is a key, which no `{` or `< T > {`
    /// may follow, no key follows the key `let`, and no `(` follows a key.
    public static func isSwift(_ text: String) -> Bool {
        var rest = Substring(text).drop(while: \.isWhitespace)
        if rest.hasPrefix("NSPredicate") {
            let call = rest.dropFirst("NSPredicate".count).drop(while: \.isWhitespace)
            return call.hasPrefix("(") && call.dropFirst().drop(while: \.isWhitespace).hasPrefix("format")
        }
        if rest.hasPrefix("let"), rest.dropFirst(3).first?.isWhitespace == true {
            let afterName = rest.dropFirst(3).drop(while: \.isWhitespace).drop { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`" }
            return afterName.drop(while: \.isWhitespace).first.map { $0 == ":" || $0 == "=" } ?? false
        }
        guard rest.hasPrefix("#Predicate") else { return false }
        rest = rest.dropFirst("#Predicate".count).drop(while: \.isWhitespace)
        if rest.hasPrefix("{") { return true }
        guard rest.hasPrefix("<"), let close = rest.firstIndex(of: ">") else { return false }
        // `#Predicate<Item, Int>` is Swift too (refused when read, naming its inputs).
        let type = rest[rest.index(after: rest.startIndex)..<close].filter { !$0.isWhitespace }
        guard let first = type.first, first.isLetter || first == "_",
            type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "," })
        else { return false }
        return rest[rest.index(after: close)...].drop(while: \.isWhitespace).hasPrefix("{")
    }

    /// The request an app's Swift `text` starts with (`@Query(`, `FetchDescriptor<T>(`,
    /// `@FetchRequest(`, `NSFetchRequest`), pasted whole where a predicate goes; nil for
    /// any other text. No format string starts so: no `@`, and no `(` or `<` after a key.
    public static func wholeRequest(_ text: String) -> String? {
        let rest = Substring(text).drop(while: \.isWhitespace)
        for name in [
            "@SectionedFetchRequest", "@FetchRequest", "@Query", "FetchDescriptor", "NSFetchRequest", "SectionedFetchRequest", "FetchRequest", "Query"
        ]
        where rest.hasPrefix(name) {
            let after = rest.dropFirst(name.count).drop(while: \.isWhitespace)
            if after.hasPrefix("(") || after.hasPrefix("<") { return name }
        }
        return nil
    }

    /// Refuses a `#Predicate<T>` (or an `NSPredicate(format:)` with a `#keyPath(T.key)`)
    /// read for `entity` when `T` is neither the entity nor one of its ancestors
    /// (`ancestors`, nearest first), whose keys it would not have.
    public static func check(_ read: Read, entity: String, ancestors: [String]) throws {
        guard let typeName = read.typeName, typeName != entity, !ancestors.contains(typeName) else { return }
        let which =
            ancestors.isEmpty ? "'\(entity)'" : "'\(entity)' or an entity it inherits from (\(ancestors.map { "'\($0)'" }.joined(separator: ", ")))"
        if let keyPath = read.keyPath {
            throw PredicateError(
                .typeMismatch, "\(keyPath) names a key of \(typeName) objects, and this fetch is of \(which)", column: read.typeColumn)
        }
        throw PredicateError(
            .typeMismatch, "#Predicate<\(typeName)> tests \(typeName) objects, and this fetch is of \(which)", column: read.typeColumn)
    }
}
