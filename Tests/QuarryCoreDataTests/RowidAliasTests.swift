import Testing

@testable import QuarryCoreData

/// Which `CREATE TABLE` makes Z_PK the rowid (so the Core Data views need no filter on its
/// type): read conservatively, a doubt keeps the filter.
@Suite struct RowidAliasTests {
    @Test(arguments: [
        ("CREATE TABLE ZA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER )", true),
        ("create table za (z_pk integer, z_ent integer, primary key (z_pk))", true),
        ("CREATE TABLE ZA ( Z_PK INTEGER PRIMARY KEY AUTOINCREMENT, Z_ENT INTEGER )", true),
        // SQLite's quirk: a DESC key is an ordinary column.
        ("CREATE TABLE ZA ( Z_PK INTEGER PRIMARY KEY DESC, Z_ENT INTEGER )", false),
        ("CREATE TABLE ZA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER ) WITHOUT ROWID", false),
        ("CREATE TABLE ZA ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER ) without rowid, strict", false),
        // Doubt: a name with the word in it.
        ("CREATE TABLE ZA ( Z_PK INTEGER PRIMARY KEY, \"SORT DESC\" INTEGER )", false)
    ])
    func theRowidIsReadFromTheDeclaration(_ sql: String, _ alias: Bool) {
        #expect(CoreDataStore.declaresRowidAlias(sql) == alias, "\(sql)")
    }
}
