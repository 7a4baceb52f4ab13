import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A clock default (`CURRENT_TIMESTAMP`) read as SQLite reads it at an insert: the text
/// its own clock gives, in its own layout, so a new object starts as the row would.
extension ForeignColumnDefault {
    /// A clock's value now, for a new object.
    static func now(_ clock: String, as type: AttributeType, in db: Database) -> Value? {
        guard clocks.contains(clock), let raw = try? DatabaseValue.fetchOne(db, sql: "SELECT \(clock)") else { return nil }
        return value(Value(raw), as: type)
    }
}
