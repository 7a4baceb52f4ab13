import Foundation
import QuarryTestSupport
import Testing

/// A WITHOUT ROWID table's key is what its rows are known by: a change to it is refused
/// where it is assigned, not at the save.
@Suite struct WithoutRowidKeyAssignmentTests {
    /// A WITHOUT ROWID table's key, set as an attribute or through a relationship kept in
    /// it, is refused at the assignment in one line, and the object stays as it was.
    @Test func aKeyOfATableWithoutRowidIsRefusedWhereItIsAssigned() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "schema.sql",
            """
            CREATE TABLE country (iso TEXT PRIMARY KEY, name TEXT) WITHOUT ROWID;
            CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE visit (city_id INTEGER REFERENCES city (id), day TEXT, note TEXT, PRIMARY KEY (city_id, day)) WITHOUT ROWID;
            INSERT INTO country VALUES ('FR', 'France');
            INSERT INTO city VALUES (1, 'Paris'), (2, 'Lyon');
            INSERT INTO visit VALUES (1, '2024-01-01', 'cold');
            """)
        try await PostgresStoreTests.sqlite3(sandbox, "k.db", file: "schema.sql")
        let result = try await sandbox.quarry([
            "k.db", "-e",
            #"""
            local fr = country:get("FR")
            print(pcall(function() fr.iso = "FX" end))
            print(fr.iso, haschanges())
            local v = visit:first()
            print(pcall(function() v.city = city:get(2) end))
            print(v.city_id, v.city.name, haschanges())
            fr.name = "République française"
            print(pcall(save))
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == [
                "false\t(command line):2: country.iso is the key its row is known by and cannot be changed (insert a new object with the new key and delete this one); the object is unchanged",
                "FR\tfalse",
                "false\t(command line):5: visit.city_id is the key its row is known by and cannot be changed (insert a new object with the new key and delete this one); the object is unchanged",
                "1\tParis\tfalse",
                "true\tsaved: 0 inserted, 1 updated, 0 deleted"
            ], "\(result)")
    }
}
