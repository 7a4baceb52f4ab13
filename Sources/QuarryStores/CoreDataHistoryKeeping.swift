import QuarryCoreData
import QuarryStore

/// Whether a Core Data store keeps persistent history, for the shell, which does not see
/// the store's kind: an app that never turned on `NSPersistentHistoryTrackingKey` made a
/// store whose saves, the app's and Quarry's, record no transaction, so `.history` says
/// so rather than "none yet".
public enum CoreDataHistoryKeeping {
    /// True for a Core Data store without persistent history tables.
    public static func keepsNone(_ context: ObjectContext) -> Bool {
        (context.store as? CoreDataStore).map { !$0.keepsPersistentHistory } ?? false
    }

    /// What `.history` prints on such a store.
    public static let none =
        "no history: this Core Data store keeps no persistent history (the app did not turn on NSPersistentHistoryTrackingKey), so saves record none"
}
