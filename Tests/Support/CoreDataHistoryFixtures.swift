import Foundation

/// None of the real stores in `../shared/data/coredata` keeps persistent history, so the
/// tests of writing it add Core Data's history tables to a copy of one. The schema below is
/// not taken from a store made by Core Data: it follows what public sources say Core Data
/// makes when `NSPersistentHistoryTrackingKey` is on (Core Data's history model as
/// decompiled in public repositories, `_PFPersistentHistoryModel`: entities CHANGE,
/// TRANSACTION and TRANSACTIONSTRING, their properties and types, the fetch indexes
/// TransactionAuthorIndex and TransactionTimestampIndex, the uniqueness of
/// TRANSACTIONSTRING.NAME; the column lists and entity numbers 16001-16003 read from real
/// Notes and Photos stores in dissect.target's tests and a forensic write-up; the index
/// `ACHANGE_ZTRANSACTIONID_INDEX` from a real SwiftData store's `dbstat`), written the way
/// Core Data writes the rest of these stores' schemas (`Z<TABLE>_<COLUMN>_INDEX` for a
/// to-one key, `Z_<Entity>_UNIQUE_<name>` for a uniqueness constraint, as in cars/).
extension CoreDataFixtures {
    /// The SQL that adds the history tables, with `tombstones` `ZTOMBSTONE<n>` columns (as
    /// many as the model's entity with the most "Preserve After Deletion" attributes has:
    /// 1 for cars, whose Person.id is, 0 for authors), and
    /// one earlier transaction by the app (author "app", bundle "com.example.app", one
    /// insert of entity 1, key 1), so that `Z_MAX`s start above zero and strings exist.
    public static func persistentHistorySQL(tombstones: Int = 0) -> String {
        let tombstoneColumns = (0..<tombstones).map { ", ZTOMBSTONE\($0) BLOB" }.joined()
        return """
            CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB\(tombstoneColumns) );
            CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID);
            CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB );
            CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS);
            CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS);
            CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS);
            CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS);
            CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC);
            CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC);
            CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC);
            INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (16001, 'CHANGE', 0, 1), (16002, 'TRANSACTION', 0, 1), (16003, 'TRANSACTIONSTRING', 0, 2);
            INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 16003, NULL, 'app'), (2, 16003, NULL, 'com.example.app');
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) VALUES (1, 16002, NULL, 1, 2, NULL, 2, 700000000.5);
            INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS) VALUES (1, 16001, NULL, 0, 1, 1, 1, NULL);
            """
    }
}
