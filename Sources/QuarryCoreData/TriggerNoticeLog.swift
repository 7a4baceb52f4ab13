import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// What a Core Data store's triggers told about the values they wrote, as Core Data's own
/// `NSCoreDataTriggerUpdateAffectedObjectValue` and `NSCoreDataDATrigger...` functions
/// hear it (table, entity number, key, column or attribute name, value: read from the
/// triggers' SQL, which call them once per row they changed, after changing it). Core
/// Data gives those values to its objects in memory; Quarry keeps them here, one log per
/// connection, until the save that fired the triggers has committed, then gives them to
/// the objects in use (`CoreDataStore.applyTriggerNotices`). Unchecked: the SQL functions
/// (GRDB's, `@Sendable`) hold it, and its notices are read and written under `lock` only.
public final class TriggerNoticeLog: @unchecked Sendable {
    public struct Notice: Equatable {
        public var table: String
        public var entity: Int64
        public var key: Int64
        /// A column (`ZFACECOUNT`) or an attribute (`derivedCameraCaptureDevice`), as the trigger names it.
        public var name: String
        public var value: DatabaseValue
    }

    private let lock = NSLock()
    private var notices: [Notice] = []

    public init() {}

    /// One call of a notice function; arguments that are not what Core Data passes are
    /// no notice (nothing is trusted from a file's trigger text).
    func note(_ arguments: [DatabaseValue]) {
        guard arguments.count == 5, let table = String.fromDatabaseValue(arguments[0]), let entity = Int64.fromDatabaseValue(arguments[1]),
            let key = Int64.fromDatabaseValue(arguments[2]), let name = String.fromDatabaseValue(arguments[3])
        else { return }
        lock.lock()
        defer { lock.unlock() }
        // A busy trigger may notify the same row many times: the last value is the one kept.
        notices.append(Notice(table: table, entity: entity, key: key, name: name, value: arguments[4]))
        if notices.count > 100_000 { notices.removeFirst(notices.count - 100_000) }
    }

    /// The notices since the last call, oldest first; the log is empty after.
    public func drain() -> [Notice] {
        lock.lock()
        defer { lock.unlock() }
        defer { notices = [] }
        return notices
    }
}
