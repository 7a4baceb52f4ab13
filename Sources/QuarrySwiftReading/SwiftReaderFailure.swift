import QuarryModel

/// Swift could not be read at all: the `quarry-swift-reader` process was not found, could
/// not start, or ended. One line; the session goes on, and the next Swift read tries again.
public struct SwiftReaderFailure: QuarryError, Equatable {
    public var message: String

    public init(_ why: String) { message = "cannot read Swift: " + why }
}
