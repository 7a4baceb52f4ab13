import QuarryStore
import Testing
import QuarryModel
import QuarryPostgreSQL

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
        // Issue 48: an '@' libpq and Quarry would read two ways shows the scheme alone;
        // a password parameter goes in any case or percent-encoding of its name; a quote
        // in a password does not end the URL early.
        (".open postgres://u:SEC@RET@h/d", ".open postgres://…"),
        (".open postgres://h?password=SEC@RET", ".open postgres://…"),
        ("open('postgres://h/d?PassWord=x&pass%77ord=y&sslpassword=z&a=1')", "open('postgres://h/d?a=1')"),
        ("open('postgres://u:pa'ss@h/d')", "open('postgres://u@h/d')"),
    ])
    func historyLinesLeaveOutPasswords(_ line: String, _ kept: String) {
        #expect(PostgresURL.withoutPasswords(in: line) == kept)
    }

    /// Issue 48: no message about a URL holds its password, whatever its shape: refused
    /// parameters' messages show the URL without it, and a URL that libpq would read
    /// otherwise than Quarry (an '@', '/' or '?' in a password) is refused before libpq
    /// sees it, showing its scheme alone.
    @Test(arguments: [
        ("postgres://h/db?schema=%00x&password=SECRET", "schema= needs"),
        ("postgres://h/db?notify=x&password=SECRET", "notify= takes"),
        ("postgres://u:SECRET@h/db?notify=x", "notify= takes"),
        ("postgres://h/db?PASSWORD=SECRET&schema=", "schema= needs"),
        ("postgres://h/db?sslpassword=SECRET&notify=no", "notify= takes"),
        ("postgres://user:SEC@RET@h:1/db", "%40"),
        ("postgres://user:SE/CRET@h:1/db", "%2F"),
        ("postgres://user:SE?CRET@h:1/db", "%3F"),
        ("postgres://h:1?password=SEC@RET", "%40"),
    ])
    func messagesNeverHoldThePassword(_ text: String, _ said: String) {
        #expect { try PostgresURL(text) } throws: { error in
            let message = "\(error)"
            return message.contains(said) && !message.contains("SEC") && !message.contains("RET") && !message.contains("\n")
        }
    }

    /// What libpq's messages may repeat of a password (as written, or decoded) is left
    /// out, wherever it is given; the prompt's form of the URL has none.
    @Test func libpqsMessagesAreRedactedWhereverThePasswordIsGiven() throws {
        let url = try PostgresURL("postgres://ann:50%25off@h:1/db?Pass%77ord=t%77o&sslpassword=three&application_name=a@b")
        #expect(url.shown == "postgres://ann@h:1/db?application_name=a@b")
        #expect(url.redacted(#"invalid percent-encoded token: "50%25off"; 50%off, two, three"#) == #"invalid percent-encoded token: "***"; ***, ***, ***"#)
        #expect(url.connectionString.contains("sslpassword=three"), "libpq still gets it")
    }
}
