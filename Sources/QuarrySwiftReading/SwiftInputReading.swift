import QuarryPredicates

/// What reads a Swift `#Predicate` or Swift sort keys for the Lua layer. Two conform: the
/// `quarry-swift-reader` process the shell starts at the first Swift read
/// (`SwiftReaderProcess`), which keeps swift-syntax out of `quarry` and out of its build,
/// and `QuarrySwiftInput`'s reading in this process, which the tests give a runtime. A
/// refusal is the `PredicateError` either way; a reader that cannot read at all throws
/// `SwiftReaderFailure`.
public protocol SwiftInputReading: AnyObject {
    /// `SwiftPredicateReader.read`: `source` with the values it captures by name.
    func readPredicate(_ source: String, captures: [String: PredicateArgument]) throws -> SwiftPredicateReader.Read
    /// `SwiftSortReader.read`: the keys `source` names, in order.
    func readSortKeys(_ source: String) throws -> [SwiftSortReader.Key]
}
