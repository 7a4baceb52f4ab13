import QuarryEngine
import Testing

@testable import QuarrySQLite

/// How SQLite's SQL names a view not yet made (`DeferredViews`): folded as SQLite folds
/// names, in its quotes, in its "no such table" message, or through its catalog.
@Suite struct SQLiteDeferredViewNamesTests {
    @Test func identifiersAreFoldedAsSQLiteFoldsThemAndEachViewIsHandedOutOnce() throws {
        let views = DeferredViews([("Car", ["view Car"]), ("SportCar", ["view SportCar"]), ("quarry_link_A_b", ["link"])])
        #expect(views.take(readBy: "SELECT x FROM \"CarPark\" WHERE note = 'sportcars'").isEmpty)
        #expect(Self.made(views.take(readBy: "select count(*) from car")) == ["view Car"])
        #expect(views.take(readBy: "SELECT * FROM \"Car\"").isEmpty)
        #expect(Self.made(views.take(readBy: "SELECT 1 FROM [SPORTCAR] JOIN quarry_link_a_B")).sorted() == ["link", "view SportCar"])
        #expect(views.isEmpty)

        let missing = DeferredViews([("Person", ["view Person"]), ("Car", ["view Car"])])
        #expect(Self.made(missing.take(missingIn: "no such table: main.person")) == ["view Person"])
        #expect(missing.take(missingIn: "no such column: Car").isEmpty)
        #expect(missing.take(missingIn: "no such table: Garage").isEmpty)
        #expect(Self.made(missing.takeAll()) == ["view Car"])
        #expect(missing.isEmpty)
    }

    /// Makings a read could not finish (Ctrl-C while one is made) are pending again,
    /// for the next read to make.
    @Test func makingsNotMadeArePendingAgain() {
        let views = DeferredViews([("Car", ["view Car"]), ("Person", ["view Person"])])
        #expect(Self.made(views.take(readBy: "SELECT * FROM car")) == ["view Car"])
        views.restoreTaken()
        #expect(Self.made(views.take(missingIn: "no such table: main.Car")) == ["view Car"])
        views.restoreTaken()
        #expect(Self.made(views.takeAll()) == ["view Car", "view Person"])
        views.restoreTaken()
        #expect(Self.made(views.take(readBy: "SELECT 1 FROM car JOIN person")) == ["view Car", "view Person"])
        #expect(views.isEmpty)
    }

    /// SQL that reads the schema sees every view, as when all were made at open; names
    /// SQLite allows beyond letters and digits are found too.
    @Test func schemaReadersMakeEveryViewAndOddNamesAreFound() throws {
        let schema = DeferredViews([("Car", ["view Car"]), ("Person", ["view Person"])])
        #expect(
            Self.made(schema.take(readBy: "select name from pragma_table_info(?)", schemaReaders: SQLiteEngine.schemaReaders)) == [
                "view Car", "view Person"
            ])
        #expect(
            Self.made(
                DeferredViews([("Car", ["view Car"])]).take(
                    readBy: "SELECT count(*) FROM temp.SQLITE_SCHEMA", schemaReaders: SQLiteEngine.schemaReaders)) == ["view Car"])

        let odd = DeferredViews([("Journal$Entry", ["dollar"]), ("Journal Entry", ["spaced"]), ("Étude", ["accented"]), ("a.b", ["dotted"])])
        #expect(Self.made(odd.take(readBy: "SELECT count(*) FROM journal$entry")) == ["dollar"])
        #expect(Self.made(odd.take(readBy: "SELECT count(*) FROM \"JOURNAL ENTRY\"")) == ["spaced"])
        #expect(Self.made(odd.take(readBy: "SELECT count(*) FROM \"Étude\"")) == ["accented"])
        #expect(Self.made(odd.take(missingIn: "no such table: a.b")) == ["dotted"])
        #expect(odd.isEmpty)

        // A quote in a name is doubled where SQL quotes it: found so, before the statement
        // runs, as PostgreSQL names no missing relation to make afterwards.
        let quoted = DeferredViews([("quarry_rows q\"uote", ["quoted"])])
        #expect(Self.made(quoted.take(readBy: "SELECT \"_row\" FROM \"quarry_rows q\"\"uote\" ORDER BY 1")) == ["quoted"])
        #expect(quoted.isEmpty)
    }

    /// The statements of `makings`, in order.
    static func made(_ makings: [DeferredViews.Making]) -> [String] { makings.flatMap { $0 } }
}
