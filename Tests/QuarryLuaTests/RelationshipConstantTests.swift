import Foundation
import QuarryShell
import QuarryStore
import Testing

/// A relationship compared with a constant (issue 85, item 3): Zotero's `itemData.value`
/// is the to-one to `itemDataValues`, whose text is `value.value`; read as the related
/// row's key, `value == 'arXiv Fulltext PDF'` compared the key column with the text and
/// answered 0 without a word. It is refused in one line naming the relationship and the
/// attribute path that holds the text, in SQL and in memory alike; the path it names
/// answers what sqlite3 answers, and nil and objects still compare.
@Suite struct RelationshipConstantTests {
    static func file() throws -> String {
        try foreignFile(
            """
            CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
            CREATE TABLE items (itemID INTEGER PRIMARY KEY, key TEXT NOT NULL);
            CREATE TABLE itemData (itemID INT, fieldID INT, valueID INT, PRIMARY KEY (itemID, fieldID),
              FOREIGN KEY (itemID) REFERENCES items(itemID), FOREIGN KEY (valueID) REFERENCES itemDataValues(valueID));
            CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT);
            CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, orderIndex INT NOT NULL DEFAULT 0,
              PRIMARY KEY (itemID, creatorID), FOREIGN KEY (itemID) REFERENCES items(itemID),
              FOREIGN KEY (creatorID) REFERENCES creators(creatorID));
            CREATE TABLE habit (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE rep (id INTEGER PRIMARY KEY, habit INTEGER REFERENCES habit(id), value INT);
            INSERT INTO itemDataValues VALUES (1, 'arXiv Fulltext PDF'), (2, 'Snapshot'), (3, 42);
            INSERT INTO items VALUES (1, 'A'), (2, 'B'), (3, 'C');
            INSERT INTO itemData VALUES (1, 1, 1), (2, 1, 1), (3, 1, 2), (3, 2, 3), (2, 2, NULL);
            INSERT INTO creators VALUES (1, 'Julian', 'Togelius'), (2, 'Ann', 'Other');
            INSERT INTO itemCreators VALUES (1, 1, 0), (1, 2, 1), (2, 2, 0);
            INSERT INTO habit VALUES (1, 'Vegan'), (2, 'Run');
            INSERT INTO rep VALUES (1, 1, 1), (2, 1, 1), (3, 2, 1), (4, NULL, 0);
            """)
    }

    /// Each form a newcomer types first, the refusal it gets (in full, up to the column),
    /// in `count` (SQL) and in `p:matches` (memory).
    static let refused: [(entity: String, predicate: String, message: String)] = [
        (
            "itemData", "value == 'arXiv Fulltext PDF'",
            "'value' is a relationship to itemDataValues: it compares with an object (%@) or nil, not a string; compare one of its attributes, such as value.value"
        ),
        (
            "itemData", "value IN {'Snapshot', 'x'}",
            "'value' is a relationship to itemDataValues: it compares with an object (%@) or nil, not a string; compare one of its attributes, such as value.value"
        ),
        (
            "itemCreators", "creator CONTAINS 'Togelius'",
            "'creator' is a relationship to creators: it compares with an object (%@) or nil, not a string; compare one of its attributes, such as creator.firstName or creator.lastName"
        ),
        (
            "items", "creators CONTAINS 'Togelius'",
            "'creators' is a relationship to creators: it compares with an object (%@) or nil, not a string; compare one of its members' attributes, as ANY creators.firstName CONTAINS 'Togelius'"
        ),
        (
            "rep", "habit_rel == 'Vegan'",
            "'habit_rel' is a relationship to habit: it compares with an object (%@) or nil, not a string; compare one of its attributes, such as habit_rel.name"
        ),
        (
            "rep", "'Vegan' == habit_rel",
            "'habit_rel' is a relationship to habit: it compares with an object (%@) or nil, not a string; compare one of its attributes, such as habit_rel.name"
        ),
        (
            "items", "ANY itemDatas.value == 'arXiv Fulltext PDF'",
            "'itemDatas.value' is a relationship to itemDataValues: it compares with an object (%@) or nil; compare one of its attributes, such as ANY itemDatas.value.value"
        ),
        (
            "items", "ANY creators == 'Togelius'",
            "ANY creators compares objects; compare one of their keys instead, as creators.firstName, or test membership of an object, as creators CONTAINS %@"
        ),
        // A member entity without a `name`: the key named is one it has.
        (
            "habit", "ANY reps == nil",
            "ANY reps compares objects; compare one of their keys instead, as reps.id, or test membership of an object, as reps CONTAINS %@"
        ),
        (
            "rep", "habit_rel == 1",
            "'habit_rel' is a relationship to habit: it compares with an object (%@) or nil, not an integer; compare one of its attributes, such as habit_rel.id"
        )
    ]

    @Test func aRelationshipComparedWithAConstantIsRefusedInSQLAndInMemory() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        for (entity, predicate, message) in Self.refused {
            let inSQL = h.error(#"count("\#(entity)", "\#(predicate)")"#)
            #expect(inSQL.hasPrefix("t:1: predicate: " + message + " at column "), "\(predicate): \(inSQL)")
            let inMemory = h.error(#"predicate("\#(predicate)"):matches(\#(entity):first())"#)
            #expect(inMemory.contains(message), "\(predicate) in memory: \(inMemory)")
        }
    }

    /// The paths the refusals name, nil, and objects answer as sqlite3 does, in SQL and in memory.
    @Test func theNamedPathsNilAndObjectsAgreeWithSQLite() throws {
        let path = try Self.file()
        let h = try Harness(context: try StoreOpener.open(path))
        try expectCountsAgreeWithSQLite(
            h, path, table: "itemData",
            [
                (
                    "value.value == 'arXiv Fulltext PDF'",
                    "valueID IN (SELECT valueID FROM itemDataValues WHERE value = 'arXiv Fulltext PDF')"
                ),
                ("value.value IN {'Snapshot', 'x'}", "valueID IN (SELECT valueID FROM itemDataValues WHERE value IN ('Snapshot', 'x'))"),
                ("value == nil", "valueID IS NULL"),
                ("value != nil", "valueID IS NOT NULL")
            ])
        try expectCountsAgreeWithSQLite(
            h, path, table: "rep",
            [
                ("habit_rel.name == 'Vegan'", "habit IN (SELECT id FROM habit WHERE name = 'Vegan')"),
                ("habit_rel.id == 1", "habit = 1"),
                ("habit_rel == nil", "habit IS NULL")
            ])
        try expectCountsAgreeWithSQLite(
            h, path, table: "items",
            [
                (
                    "ANY itemDatas.value.value == 'arXiv Fulltext PDF'",
                    "itemID IN (SELECT itemID FROM itemData NATURAL JOIN itemDataValues WHERE value = 'arXiv Fulltext PDF')"
                ),
                (
                    "ANY creators.lastName CONTAINS 'Togelius'",
                    "itemID IN (SELECT itemID FROM itemCreators NATURAL JOIN creators WHERE lastName GLOB '*Togelius*')"
                )
            ])
        // `ANY creators == %@` with an object: membership, as Core Data reads it, the same
        // answer as CONTAINS; NONE is its negation.
        let togelius = #"creators:first("lastName == 'Togelius'")"#
        let holding = try sqlAnswer(path, "SELECT count(*) FROM items WHERE itemID IN (SELECT itemID FROM itemCreators WHERE creatorID = 1)")
        #expect(h.string(#"count("items", "ANY creators == %@", \#(togelius))"#) == holding)
        #expect(h.string(#"count("items", "creators CONTAINS %@", \#(togelius))"#) == holding)
        #expect(h.string(#"count("items", "NONE creators == %@", \#(togelius))"#) == "2")
        #expect(h.string(#"predicate("ANY creators == %@", \#(togelius)):matches(items:first("itemID == 1"))"#) == "true")
        #expect(h.string(#"predicate("ANY creators == %@", \#(togelius)):matches(items:first("itemID == 2"))"#) == "false")
        let vegan = try sqlAnswer(path, "SELECT count(*) FROM rep WHERE habit = (SELECT id FROM habit WHERE name = 'Vegan')")
        #expect(h.string(#"count("rep", "habit_rel == %@", habit:first("name == 'Vegan'"))"#) == vegan)
        #expect(h.string(#"predicate("habit_rel == %@", habit:first("name == 'Vegan'")):matches(rep:first("id == 1"))"#) == "true")
    }
}
