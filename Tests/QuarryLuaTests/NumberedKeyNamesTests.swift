import Foundation
import QuarryShell
import QuarryStore
import Testing

/// Two keys of one table to one parent whose columns differ only by a number (Android
/// contacts2's `agg_exceptions(raw_contact_id1, raw_contact_id2)`) are named alike, by
/// their stem and number: `raw_contact1`, `raw_contact2`, with the inverses
/// `agg_exceptions_as_raw_contact1`, `agg_exceptions_as_raw_contact2`, not the plain names
/// for the first and the column's words for the second. Those names stay other names. A
/// join table's pair (`friends(person_id1, person_id2)`) keeps its names.
@Suite struct NumberedKeyNamesTests {
    @Test func twoNumberedKeysAreNamedAlikeAndTheirEarlierNamesStillRead() throws {
        let path = try foreignFile(
            """
            CREATE TABLE raw_contacts (_id INTEGER PRIMARY KEY AUTOINCREMENT, display_name TEXT);
            CREATE TABLE agg_exceptions (_id INTEGER PRIMARY KEY AUTOINCREMENT, type INTEGER NOT NULL,
              raw_contact_id1 INTEGER REFERENCES raw_contacts(_id), raw_contact_id2 INTEGER REFERENCES raw_contacts(_id));
            INSERT INTO raw_contacts VALUES (1, 'Ann'), (2, 'Bob'), (3, 'Cy');
            INSERT INTO agg_exceptions VALUES (1, 1, 1, 2), (2, 2, 3, 2);
            """)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let h = try Harness(context: try StoreOpener.open(path))
        let e = try h.context.entity(named: "agg_exceptions")
        #expect(e.relationships.map(\.name).sorted() == ["raw_contact1", "raw_contact2"])
        let parent = try h.context.entity(named: "raw_contacts")
        #expect(parent.relationships.map(\.name).sorted() == ["agg_exceptions_as_raw_contact1", "agg_exceptions_as_raw_contact2"])
        #expect(h.string("agg_exceptions:get(1).raw_contact1.display_name .. agg_exceptions:get(1).raw_contact2.display_name") == "AnnBob")
        #expect(h.string(#"count("agg_exceptions", "raw_contact2.display_name == 'Bob' AND raw_contact1.display_name == 'Cy'")"#) == "1")
        #expect(h.string("#raw_contacts:get(2).agg_exceptions_as_raw_contact2 .. #raw_contacts:get(2).agg_exceptions_as_raw_contact1") == "20")
        // The names the rule gave before read as well: in key paths, in SQL and in memory.
        #expect(
            h.string("agg_exceptions:get(1).raw_contact.display_name .. agg_exceptions:get(1).raw_contact_id2_raw_contact.display_name")
                == "AnnBob")
        #expect(h.string(#"count("agg_exceptions", "raw_contact_id2_raw_contact.display_name == 'Bob'")"#) == "2")
        #expect(h.string(#"count("raw_contacts", "agg_exceptions.@count == 1")"#) == "2")
        #expect(h.string("#raw_contacts:get(2).agg_exceptions_as_raw_contact_id2_raw_contact .. #raw_contacts:get(1).agg_exceptions_set") == "21")
        h.run(
            #"""
            local p = predicate("raw_contact_id2_raw_contact.display_name == 'Bob' AND raw_contact.display_name == 'Ann'")
            assert(p:matches(agg_exceptions:get(1)) and not p:matches(agg_exceptions:get(2)))
            """#)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "opening changed the file")
        // Written through the new name, read through the old.
        h.run("local x = agg_exceptions:get(2); x.raw_contact1 = raw_contacts:get(2); save()")
        #expect(h.string("agg_exceptions:get(2).raw_contact.display_name") == "Bob")
        #expect(try sqlAnswer(path, "SELECT raw_contact_id1 FROM agg_exceptions WHERE _id = 2") == "2")
    }

    /// In camel case too (`parentId1`, `parentId2` -> `parent1`, `parent2`; the inverses
    /// `personsAsParent1`, `personsAsParent2` for a table named in capitals); a self-reference.
    @Test func camelCaseAndSelfReferencesAreNumberedToo() throws {
        let path = try foreignFile(
            """
            CREATE TABLE Persons (id INTEGER PRIMARY KEY, name TEXT, parentId1 INTEGER REFERENCES Persons(id), parentId2 INTEGER REFERENCES Persons(id));
            INSERT INTO Persons VALUES (1, 'a', NULL, NULL), (2, 'b', NULL, NULL), (3, 'c', 1, 2);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        let e = try h.context.entity(named: "Persons")
        #expect(e.relationships.map(\.name).sorted() == ["parent1", "parent2", "personsAsParent1", "personsAsParent2"])
        #expect(h.string("Persons:get(3).parent1.name .. Persons:get(3).parent2.name .. #Persons:get(2).personsAsParent2") == "ab1")
        #expect(h.string(#"count("Persons", "parent2.name == 'b'")"#) == "1")
    }

    /// A join table's two numbered keys keep the names they had (its many-to-many is named
    /// from them), and so does a numbered key without a sibling, or siblings to two parents.
    @Test func joinTablesAndLoneNumberedKeysKeepTheirNames() throws {
        let path = try foreignFile(
            """
            CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE place (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE friends (person_id1 INTEGER REFERENCES person(id), person_id2 INTEGER REFERENCES person(id));
            CREATE TABLE visit (id INTEGER PRIMARY KEY, at TEXT, person_id1 INTEGER REFERENCES person(id), place_id2 INTEGER REFERENCES place(id));
            INSERT INTO person VALUES (1, 'a'), (2, 'b');
            INSERT INTO friends VALUES (1, 2);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(try h.context.entity(named: "friends").relationships.map(\.name).sorted() == ["person", "person_id2_person"])
        #expect(
            try h.context.entity(named: "person").relationships.map(\.name).sorted() == [
                "friends", "friends_as_person_id2_person", "person_id2_persons", "persons", "visits"
            ])
        #expect(h.string("#person:get(1).person_id2_persons .. #person:get(2).persons") == "11")
        #expect(try h.context.entity(named: "visit").relationships.map(\.name).sorted() == ["person", "place"])
    }
}
