import QuarryPredicates
import QuarrySwiftReading

/// Swift read in this process, with swift-syntax linked in: what `quarry-swift-reader`
/// serves with, and what the tests give a Lua runtime (`SwiftReaderProcess` is `quarry`'s).
public final class InProcessSwiftReader: SwiftInputReading {
    public init() {}

    public func readPredicate(_ source: String, captures: [String: PredicateArgument]) throws -> SwiftPredicateReader.Read {
        try SwiftPredicateReader.read(source, captures: captures)
    }

    public func readSortKeys(_ source: String) throws -> [SwiftSortReader.Key] { try SwiftSortReader.read(source) }
}
