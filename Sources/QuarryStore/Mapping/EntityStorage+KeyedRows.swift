import QuarryEngine

extension SQLDialect {
    /// `SELECT columns` of `storage`'s rows whose keys are `count` placeholders, as the
    /// dialect reads its rows by key (`keyedRows`).
    public func rowsByKey(_ columns: String, of storage: EntityStorage, count: Int) -> String {
        rowsByKey(columns, of: storage.keyedRows, count: count)
    }
}
