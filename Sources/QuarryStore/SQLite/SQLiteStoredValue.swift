import GRDB

// The one GRDB type that code every engine shares still carries (Core Data's tombstones),
// named here so that no folder but this one (and Core Data's layout, which exists only on
// SQLite) imports GRDB.

/// A value as SQLite stores it: what a Core Data store keeps of a deleted row (its
/// tombstones, `StoreSaveWork.tombstones`, `BatchChange.tombstones`).
typealias SQLiteStoredValue = DatabaseValue
