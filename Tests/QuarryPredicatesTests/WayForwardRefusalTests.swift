import Foundation
import GRDB
import QuarryModel
import QuarryPostgreSQL
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Refusals that name the way forward (issue 80's predicate moments, issue 79's review):
/// each one line, saying what was written and what works instead.
@Suite struct WayForwardRefusalTests {
    /// Another program's file with text of ISO times in two columns, and a category.
    static func loans() throws -> ObjectContext {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-wayforward-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("loans.db").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE loans (id INTEGER PRIMARY KEY, category TEXT, due TEXT, returned_at TEXT, note TEXT)")
            try db.execute(
                sql: """
                    INSERT INTO loans (category, due, returned_at, note) VALUES
                      ('food', '2024-01-02 10:00:00', '2024-01-03 10:00:00', 'a'),
                      ('tools', '2024-02-02 10:00:00', '2024-01-03 10:00:00', 'b')
                    """)
        }
        try queue.close()
        return try StoreOpener.open(path)
    }

    static func refusal(_ format: String, in context: ObjectContext, entity: String) throws -> QuarryPredicates.PredicateError? {
        do {
            _ = try BoundPredicate(try PredicateParser.parse(format), entity: try context.entity(named: entity), context: context)
            return nil
        } catch let error as QuarryPredicates.PredicateError {
            return error
        }
    }

    /// After `format("loans", "due", "iso-space")` made `due` a date, `returned_at > due`
    /// (still text) names the `format()` that makes `returned_at` a date too, on either side.
    @Test func textOfISOTimesBesideADateNamesItsFormat() throws {
        let context = try Self.loans()
        try context.declareFormat("loans", "due", "iso-space", keep: false)
        let hint = #"its text reads as ISO 8601 times: format("loans", "returned_at", "iso-space") makes it a date"#
        for format in ["returned_at > due", "due <= returned_at"] {
            let error = try #require(try Self.refusal(format, in: context, entity: "loans"), "\(format) was read")
            let line = ErrorRendering.oneLine(error)
            #expect(line.contains("cannot be compared with") && line.contains(hint) && !line.contains("\n"), "\(format): \(line)")
        }
        // Text that is no time gets no such hint.
        let note = try #require(try Self.refusal("note > due", in: context, entity: "loans"))
        #expect(!note.message.contains("format("), "\(note.message)")
        // Following the hint: both dates, compared.
        try context.declareFormat("loans", "returned_at", "iso-space", keep: false)
        #expect(try Self.refusal("returned_at > due", in: context, entity: "loans") == nil)
    }

    /// `category == food`, no key `food`: a word where a string was meant. The refusal says
    /// the unknown key path and the quoted string, in one line; a key near the word is
    /// still the suggestion, and a word compared with a number gets no string.
    @Test func anUnquotedWordComparedWithAStringSuggestsTheString() throws {
        let context = try Self.loans()
        for format in ["category == food", "food == category", "category != food"] {
            let error = try #require(try Self.refusal(format, in: context, entity: "loans"), "\(format) was read")
            let line = ErrorRendering.oneLine(error)
            #expect(
                line.contains("unknown key path 'food' on entity loans (did you mean the string 'food'?)") && !line.contains("\n"),
                "\(format): \(line)")
        }
        let near = try #require(try Self.refusal("categry == 'food'", in: context, entity: "loans"))
        #expect(near.suggestion == "category" && !near.message.contains("the string"), "\(near.message)")
        let number = try #require(try Self.refusal("id == food", in: context, entity: "loans"))
        #expect(!number.message.contains("the string"), "\(number.message)")
    }

    /// A string's UTF-16 length where PostgreSQL's SQL cannot say it (a database that is
    /// not UTF8): refused by name, in SQL and memory alike (binding refuses it), where it
    /// fell to Quarry's SQL function, which the server lacks, while memory answered. A
    /// length against 0 is the string being '' there too; a UTF8 database counts it.
    @Test func aLengthPostgreSQLCannotCountIsRefusedByName() throws {
        let base = try PostgresServer.url()
        let name = "ascii_" + UUID().uuidString.prefix(8).lowercased()
        _ = try PostgresConnection(url: base).execute("CREATE DATABASE \(name) ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
        let slash = try #require(base.lastIndex(of: "/"))
        let ascii = String(base[...slash]) + name
        let utf8 = try PostgresServer.database("length")
        for url in [ascii, utf8] {
            let connection = try PostgresConnection(url: url)
            _ = try connection.execute("CREATE TABLE people (id bigint PRIMARY KEY, name text)")
            _ = try connection.execute("INSERT INTO people VALUES (1, 'Cafe'), (2, '')")
        }
        let plain = try StoreOpener.open(ascii)
        let error = try #require(try Self.refusal("name.length == 4", in: plain, entity: "people"), "name.length was read")
        #expect(
            error.message.contains("'name.length' counts the string 'name' in UTF-16 units, which this store's SQL cannot count"), "\(error.message)")
        #expect(try Self.refusal("name.length == 0", in: plain, entity: "people") == nil)
        let empty = try BoundPredicate(PredicateParser.parse("name.length > 0"), entity: plain.entity(named: "people"), context: plain)
        #expect(!empty.sql(dialect: plain.sqlDialect).sql.contains("quarry_"), "\(empty.sql(dialect: plain.sqlDialect).sql)")
        let unicode = try StoreOpener.open(utf8)
        #expect(try Self.refusal("name.length == 4", in: unicode, entity: "people") == nil)
    }
}
