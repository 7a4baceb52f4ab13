import GRDB

// GRDB's types that code every engine shares still carries for SQLite, named here so that
// no folder but this one (and Core Data's layout, which exists only on SQLite) imports GRDB.

/// SQLite's extended result code, as the store's errors keep it (`StoreError.sqlite`,
/// `ConstraintViolation.EngineCode.sqlite`); `StoreError.sqliteCode` reads it.
public typealias SQLiteResultCode = ResultCode

/// A value as SQLite stores it: what a Core Data store keeps of a deleted row (its
/// tombstones, `StoreSaveWork.tombstones`, `BatchChange.tombstones`).
typealias SQLiteStoredValue = DatabaseValue
