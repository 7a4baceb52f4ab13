import Foundation
import Testing

/// An Airbnb listing's `coordinates` is text with numbers inside, `(40.68514, -73.95976)`.
/// Compared with a number, the refusal offered `CAST(coordinates AS REAL) > 40.7`, which
/// reads every such text as 0: pasted, it counted nothing without a word. Such text is
/// said as it is, and the CAST is offered only where the text is numbers (or words).
@Suite struct TextWithNumbersInsideTests {
    @Test func aCastThatWouldReadZeroIsNotOffered() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(
            sandbox, "listings.db",
            """
            CREATE TABLE dim_listings (listing_id INTEGER PRIMARY KEY, coordinates VARCHAR, code VARCHAR);
            INSERT INTO dim_listings VALUES (1, '(40.68514, -73.95976)', '42'), (2, '(40.70837, -73.95352)', '7.5'), (3, '(40.80902, -73.9419)', '12');
            """)
        // What the CAST would have counted: nothing, where two listings are north of 40.7.
        #expect(try await sqlite3(sandbox, "listings.db", "SELECT count(*) FROM dim_listings WHERE CAST(coordinates AS REAL) > 40.7") == "0")
        let refused = try await sandbox.quarry(["listings.db", "-e", #"count("dim_listings", "coordinates > 40.7")"#])
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr.contains(
                "its text holds more than a number ('(40.68514, -73.95976)'), which CAST(coordinates AS REAL) reads as the number it starts with, "
                    + "0 for none: sql() can take the number out with substr() or replace() first"), "\(refused)")
        #expect(!refused.stderr.contains("AS REAL) > 40.7"), "\(refused)")
        // A text column of plain numbers keeps the CAST that reads them.
        let numbers = try await sandbox.quarry(["listings.db", "-e", #"count("dim_listings", "code > 10")"#])
        #expect(numbers.stderr.contains("sql('SELECT count(*) FROM dim_listings WHERE CAST(code AS REAL) > 10')"), "\(numbers)")
    }
}
