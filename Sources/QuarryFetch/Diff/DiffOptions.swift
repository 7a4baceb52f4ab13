/// What `diff` is told: the keys objects are matched by, per entity (`by = { Item = "uuid" }`),
/// and how far apart two floating values may be and still be equal (`tolerance = { price =
/// 0.005 }`, by attribute name, in every entity).
public struct DiffOptions: Equatable, Sendable {
    public var by: [String: [String]]
    public var tolerance: [String: Double]
    /// Only these entities (nil: every entity both stores have).
    public var entities: [String]?
    /// Whether two SQLite files may be compared by SQL, one attached to the other, the
    /// rows that differ alone read (`ChangedRows`); off, every row is read and compared in
    /// Swift. Both give the same answer (the diff tests run both).
    package var findsChangesInSQL = true

    public init(by: [String: [String]] = [:], tolerance: [String: Double] = [:], entities: [String]? = nil) {
        self.by = by
        self.tolerance = tolerance
        self.entities = entities
    }
}
