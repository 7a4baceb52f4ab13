import Foundation
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// What a PostgreSQL database that folds no text (not UTF8, or without ICU) cannot say in
/// SQL is refused as what the predicate asked: `lowercase:` among the functions Quarry's
/// SQL functions would run, and a string's `length` by the predicate itself, before any
/// SQL, so the refusal of the functions no longer lists it (issue 81). Against a real
/// server (`PostgresServer`): the test fails, never skips, without one.
@Suite struct PostgresMissingFunctionTests {
    @Test func aDatabaseThatFoldsNoTextRefusesByName() throws {
        let base = try PostgresServer.url()
        let name = "ascii_" + UUID().uuidString.prefix(8).lowercased()
        try PostgresRedefinedViewTests.psql(base, "CREATE DATABASE \(name) ENCODING 'SQL_ASCII' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'")
        let url = String(base[...(base.lastIndex(of: "/") ?? base.startIndex)]) + name
        try PostgresRedefinedViewTests.psql(url, "CREATE TABLE t (id integer PRIMARY KEY, name text); INSERT INTO t VALUES (1, 'abc'), (2, 'a');")
        let h = try Harness(context: try StoreOpener.open(url))
        let lowered = h.error(#"count("t", "lowercase:(name) == %@", "abc")"#)
        #expect(lowered.contains("does not support") && lowered.contains("lowercase:/uppercase:"), "\(lowered)")
        #expect(!lowered.contains("length"), "\(lowered)")
        let length = h.error(#"count("t", "name.length > 2")"#)
        #expect(length.contains("'name.length' counts the string 'name' in UTF-16 units, which this store's SQL cannot count"), "\(length)")
    }
}
