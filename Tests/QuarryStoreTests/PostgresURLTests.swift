import QuarryStore
import Testing

/// How a PostgreSQL URL is read: Quarry's parameters taken out, the password never shown.
@Suite struct PostgresURLTests {
    @Test func quarrysParametersAreTakenOutBeforeLibpqReadsTheRest() throws {
        let url = try PostgresURL("postgres://ann:s3cret@db:5433/shop?schema=Sales&notify=triggers&sslmode=disable")
        #expect(url.schema == "Sales")
        #expect(url.installsTriggers)
        #expect(url.connectionString == "postgres://ann:s3cret@db:5433/shop?sslmode=disable")
        #expect(url.shown == "postgres://ann@db:5433/shop?schema=Sales&notify=triggers&sslmode=disable")
        #expect(try !PostgresURL("postgresql://db/shop").installsTriggers)
        #expect(throws: StoreError.self) { try PostgresURL("postgres://db/shop?notify=yes") }
    }

    /// A line typed at the REPL goes to the history file without any URL's password.
    @Test(arguments: [
        (".open postgres://ann:s3cret@db/shop", ".open postgres://ann@db/shop"),
        (#"x = ".open POSTGRESQL://u:p%40ss@h:1/d?password=two&schema=s""#, #"x = ".open POSTGRESQL://u@h:1/d?schema=s""#),
        ("open('postgres://h/d?password=x')", "open('postgres://h/d')"),
        ("print('postgres is fine: a:b@c')", "print('postgres is fine: a:b@c')"),
        ("count(\"flights\")", "count(\"flights\")"),
    ])
    func historyLinesLeaveOutPasswords(_ line: String, _ kept: String) {
        #expect(PostgresURL.withoutPasswords(in: line) == kept)
    }
}
