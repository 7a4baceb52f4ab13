import Foundation
import QuarryModel
import QuarryPostgreSQL
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// A save's updates go to the server together, a pipeline of them at a time
/// (`PostgresConnection+Pipeline`): what the server made of each row comes back to its
/// object, and one refused among hundreds is named as it was alone, with nothing written.
/// Against a real server (`PostgresServer`): the test fails, never skips, without one.
@Suite struct PostgresPipelinedSaveTests {
    @Test func updatesSentTogetherReadBackAndRefuseAsAlone() throws {
        let url = try PostgresServer.database("pipelinedsave")
        let setup = try PostgresConnection(url: url)
        try setup.execute("CREATE TABLE tally (id serial PRIMARY KEY, amount numeric(5,2), n integer CHECK (n < 1000), twice integer)")
        try setup.execute("CREATE FUNCTION twice() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.twice := NEW.n * 2; RETURN NEW; END $$")
        try setup.execute("CREATE TRIGGER twice BEFORE UPDATE ON tally FOR EACH ROW EXECUTE FUNCTION twice()")
        try setup.execute("INSERT INTO tally (amount, n) SELECT 1, g FROM generate_series(1, 600) g")
        let context = try StoreRegistry.open(url)
        let objects = try (1...600).map { try #require(try context.object(entityName: "tally", primaryKey: Int64($0))) }
        for (i, object) in objects.enumerated() { try object.setValue(.integer(Int64(i + 2)), forKey: "n") }
        _ = try context.save()
        // The trigger's value, read back into every object, first and last batch alike.
        let twice: [Value] = try objects.map { try $0.value(forKey: "twice") }
        let expected: [Value] = (1...600).map { (n: Int) -> Value in .integer(Int64((n + 1) * 2)) }
        #expect(twice == expected)
        let sums: [[Value]] = try setup.execute("SELECT sum(n)::int8, sum(twice)::int8 FROM tally").rows
        #expect(sums == [[.integer(180_900), .integer(361_800)]])

        // A value too wide for its column in the second batch: named, nothing written.
        for object in objects { try object.setValue(.real(2), forKey: "amount") }
        try objects[400].setValue(.real(12345.1), forKey: "amount")
        #expect(
            throws: StoreError.during(
                operation: "save",
                .typeMismatch(entity: "tally", key: "amount", expected: "numeric(5,2), at most 3 digits before the point", given: "12345.1"))
        ) {
            try context.save()
        }
        _ = context.rollback()
        // A CHECK refused in the first batch: the server's refusal, nothing written.
        for object in objects { try object.setValue(.real(3), forKey: "amount") }
        try objects[100].setValue(.integer(5000), forKey: "n")
        #expect(throws: StoreError.self) { try context.save() }
        _ = context.rollback()
        let kept: [[Value]] = try setup.execute("SELECT sum(n)::int8, count(*) FILTER (WHERE amount = 1)::int8 FROM tally").rows
        #expect(kept == [[.integer(180_900), .integer(600)]])
        // The session goes on: a save after the refusals writes.
        try objects[0].setValue(.integer(7), forKey: "n")
        _ = try context.save()
        let first: [[Value]] = try setup.execute("SELECT n, twice FROM tally WHERE id = 1").rows
        #expect(first == [[.integer(7), .integer(14)]])
    }
}
