/// What `diff` is told: the keys objects are matched by, per entity (`by = { Item = "uuid" }`),
/// and how far apart two floating values may be and still be equal (`tolerance = { price =
/// 0.005 }`, by attribute name, in every entity).
public struct DiffOptions: Equatable, Sendable {
    public var by: [String: [String]]
    public var tolerance: [String: Double]
    /// Only these entities (nil: every entity both stores have).
    public var entities: [String]?

    public init(by: [String: [String]] = [:], tolerance: [String: Double] = [:], entities: [String]? = nil) {
        self.by = by
        self.tolerance = tolerance
        self.entities = entities
    }
}
