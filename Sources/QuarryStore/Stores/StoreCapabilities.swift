/// What a store can do, asked by layers that must not depend on which kind it is
/// (`ObjectContext.capabilities`).
public struct StoreCapabilities: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The store carries the model of the app that wrote it (Core Data, SwiftData): its
    /// entities are the app's, so no script or `--model` defines them.
    public static let appModel = StoreCapabilities(rawValue: 1 << 0)
    /// The app that wrote it used SwiftData: Swift for it is `@Query` and `@Model`.
    public static let swiftData = StoreCapabilities(rawValue: 1 << 1)
}
