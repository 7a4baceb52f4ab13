import QuarryStore

extension EntityStorage {
    /// ` AND` the test that a joined row of this storage, under `alias`, is an object's: a
    /// WITHOUT ROWID table's INTEGER PRIMARY KEY holds text and fractions too
    /// (`keyMayHoldOthers`), and such rows are no objects, so a key path that reached them
    /// counted links (`w != nil`, `w.v == "c"`) to rows whose object is nil in memory.
    /// Empty for every other storage.
    func objectRowsOnly(_ alias: String) -> String { objectRowTest(alias).map { " AND " + $0 } ?? "" }

    /// The test itself, nil where every row is an object's.
    func objectRowTest(_ alias: String) -> String? {
        guard keyMayHoldOthers, let dialect else { return nil }
        return dialect.holdsInteger("\(alias).\(key)")
    }
}
