import Foundation
import Testing

@testable import QuarryShell

/// The Lua an UPDATE or DELETE typed at the prompt is answered with, built from the
/// statement, and the statements it cannot read (answered in general words instead).
@Suite struct SQLWriteAnswerTests {
    private let answer = SQLWriteAnswer(entities: [
        .init(name: "Track", table: "tracks", attributes: ["Name", "UnitPrice", "Composer", "Bytes"]),
        .init(name: "my table", table: "my table", attributes: ["a"])
    ])
    private let written = "SQL here only reads; this does it, written at once (rollback() does not undo it): "

    @Test func anUpdateOfValuesIsOneUpdateall() {
        #expect(answer.answer("UPDATE Track SET UnitPrice = 1.29") == written + "Track:updateall(nil, {}, { UnitPrice = 1.29 })")
        // The table's own name, any case, a schema, quoted names and a closing semicolon.
        #expect(
            answer.answer(#"update main."TRACKS" set "unitprice" = -0.5, Composer = 'O''Brien' where Bytes >= 100;"#)
                == written + #"Track:updateall("Bytes >= 100", {}, { UnitPrice = -0.5, Composer = "O'Brien" })"#)
        #expect(
            answer.answer("UPDATE Track SET Composer = NULL WHERE Composer IS NOT NULL AND Name LIKE 'A_%' OR Bytes IN (1, 2)")
                == written + #"Track:updateall("Composer != nil AND Name LIKE[c] 'A?*' OR Bytes IN {1, 2}", {}, { Composer = null })"#)
    }

    /// SQLite's LIKE ignores the case of ASCII letters, so the answer is LIKE[c]; a `*`,
    /// `?` or `\` of the pattern matches itself there, escaped; GLOB keeps case and its
    /// wildcards (LIKE); `BETWEEN 1 AND 5` is `BETWEEN {1, 5}`; `x NOT LIKE`, ESCAPE and
    /// GLOB's classes have no form in the grammar: the general answer.
    /// A name in another case is written as the entity spells it: the predicate's names
    /// keep their case (found by review).
    @Test func namesAreWrittenAsTheEntitySpellsThem() {
        #expect(answer.answer("DELETE FROM Track WHERE bytes = 1") == written + #"Track:deleteall("Bytes = 1", {})"#)
    }

    @Test func likeIsAnsweredAsSQLiteMatchesIt() {
        #expect(
            answer.answer("UPDATE Track SET Name = 'X' WHERE Name LIKE '%lifeguard%'")
                == written + #"Track:updateall("Name LIKE[c] '*lifeguard*'", {}, { Name = "X" })"#)
        #expect(
            answer.answer(#"DELETE FROM Track WHERE Name LIKE 'a*b?c\%' OR Composer GLOB 'B*'"#)
                == written + #"Track:deleteall("Name LIKE[c] 'a\\\\*b\\\\?c\\\\\\\\*' OR Composer LIKE 'B*'", {})"#)
        #expect(
            answer.answer("DELETE FROM Track WHERE Bytes BETWEEN -1 AND 5 AND Name = 'Ab'")
                == written + #"Track:deleteall("Bytes BETWEEN {-1, 5} AND Name = 'Ab'", {})"#)
        for statement in [
            "DELETE FROM Track WHERE Name NOT LIKE 'a%'", "DELETE FROM Track WHERE Name LIKE 'a!%' ESCAPE '!'",
            "DELETE FROM Track WHERE Name GLOB '[ab]*'", "DELETE FROM Track WHERE Bytes NOT IN (1, 2)",
            "DELETE FROM Track WHERE Bytes BETWEEN Bytes AND 5",
            // A name that is no attribute: the line given would be refused (trial 32).
            "DELETE FROM Track WHERE rowid > 500", #"UPDATE Track SET Bytes = 1 WHERE "oid" = 5"#, "DELETE FROM Track WHERE length(Name) > 3"
        ] {
            #expect(answer.answer(statement) == nil, "\(statement)")
        }
    }

    /// OpenFlights keeps time zones as text (`'5.5'`): SQLite stores a sum assigned to a
    /// TEXT column as its text, and Lua refuses a number there, so the loop writes its text.
    @Test func aSumAssignedToTextIsWrittenAsItsText() throws {
        let answer = SQLWriteAnswer(entities: [
            .init(name: "airports", table: "airports", attributes: ["timezone", "name", "altitude"], textAttributes: ["timezone", "name"])
        ])
        let text = try #require(
            answer.answer("UPDATE airports SET timezone = timezone + 1, name = name || ' (closed)', altitude = altitude * 2 WHERE altitude > 0"))
        #expect(
            text.hasSuffix(
                #"do o.timezone = tostring(o.timezone + 1); o.name = o.name .. " (closed)"; o.altitude = o.altitude * 2 end; save()"#),
            "\(text)")
    }

    @Test func anUpdateComputedFromAColumnIsTheLoop() throws {
        let text = try #require(answer.answer("UPDATE Track SET UnitPrice = UnitPrice * 1.1, Name = Name || ' (live)' WHERE Bytes <> 0"))
        #expect(text.contains("updateall sets values, not values computed from a column"), "\(text)")
        #expect(
            text.hasSuffix(
                #"for _, o in ipairs(Track:fetch("Bytes != 0")) do o.UnitPrice = o.UnitPrice * 1.1; o.Name = o.Name .. " (live)" end; save()"#),
            "\(text)")
        // What Lua would not read the same is left for the person to write.
        let call = try #require(answer.answer("UPDATE Track SET UnitPrice = round(UnitPrice, 2)"))
        #expect(call.hasSuffix("for _, o in ipairs(Track:fetch()) do o.UnitPrice = … end; save()"), "\(call)")
    }

    @Test func aDeleteIsOneDeleteall() {
        #expect(answer.answer("DELETE FROM Track") == written + "Track:deleteall()")
        #expect(answer.answer("delete from tracks where Bytes < 10") == written + #"Track:deleteall("Bytes < 10", {})"#)
    }

    /// An INSERT with its columns: one new{} a row and save(); without them, or with a
    /// value computed, the entity's new{} with its attributes for the values.
    @Test func anInsertIsTheEntitysNew() {
        #expect(
            answer.answer("insert or ignore into tracks (name, Bytes) values ('A', 1), ('B''s', -2);")
                == #"SQL here only reads; this does it, written by save(): Track:new{ Name = "A", Bytes = 1 }; Track:new{ Name = "B's", Bytes = -2 }; save()"#
        )
        let template = "SQL here only reads: a row is added with Track:new{ Name = …, UnitPrice = …, Composer = …, Bytes = … }, then save()"
        #expect(answer.answer("INSERT INTO Track VALUES (1)") == template)
        #expect(answer.answer("INSERT INTO Track (Name) VALUES (upper('a'))") == template)
        #expect(answer.answer("INSERT INTO Track (Name, Bytes) VALUES ('a')") == template)
    }

    /// Nil (the general answer) for what this does not read: an unknown table, a name Lua
    /// cannot hold as a global, a parameter, an ORDER BY or LIMIT, an unclosed quote.
    @Test func whatItCannotReadGetsTheGeneralAnswer() {
        for statement in [
            "UPDATE Album SET Title = 'x'", #"UPDATE "my table" SET a = 1"#, "UPDATE Track SET Name = ? WHERE Bytes = 1",
            "DELETE FROM Track WHERE Bytes = ?", "DELETE FROM Track ORDER BY Bytes LIMIT 1", "UPDATE Track SET Name = 'x",
            "UPDATE Track SET", "UPDATE Track SET Name = 'x' FROM Album", "INSERT INTO Album VALUES (1)", "INSERT INTO Track (Name) VALUES (?)"
        ] {
            #expect(answer.answer(statement) == nil, "\(statement)")
        }
    }
}

/// A name that is not there and a file beside it that it is a typo of.
@Suite struct LikelyMeantTests {
    @Test func aTypoOfAFileBesideItIsNamedOthersAreNot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-meant-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["chinook.sqlite", "chinook.sqlite-wal", "store.db", "a.db", "flights.db.quarry", "flights.db"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        #expect(NewFileNote.likelyMeant(path("chinok.sqlite")) == path("chinook.sqlite"))
        #expect(NewFileNote.likelyMeant(path("chinoko.sqlite")) == path("chinook.sqlite"))
        #expect(NewFileNote.likelyMeant(path("flihgts.db")) == path("flights.db"), "a swap, and never the sidecar")
        // Different names, not typos: short, numbered, far.
        #expect(NewFileNote.likelyMeant(path("b.db")) == nil)
        #expect(NewFileNote.likelyMeant(path("store2.db")) == nil)
        #expect(NewFileNote.likelyMeant(path("orders.db")) == nil)
    }
}

/// `CREATE INDEX` typed at the prompt is answered about indexes (it was answered about
/// making a table, which CREATE TABLE asks).
@Suite struct SQLIndexAnswerTests {
    @Test func aCreateIndexIsAnsweredWithTheIndexedAttribute() {
        let answer = SQLWriteAnswer(entities: [.init(name: "city", table: "city", attributes: ["Name"])])
        for statement in ["CREATE INDEX i ON city (Name)", "create unique index if not exists i on city(Name);"] {
            let text = answer.answer(statement)
            #expect(text?.contains("indexed = true") == true, "\(statement): \(text ?? "nil")")
        }
        #expect(answer.answer("CREATE TABLE t (a)") == nil, "a table gets the general answer")
    }
}
