import QuarryModel
import QuarryPostgreSQL
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
        // Issue 48: an '@' libpq and Quarry would read two ways shows the scheme alone;
        // a password parameter goes in any case or percent-encoding of its name; a quote
        // in a password does not end the URL early.
        (".open postgres://u:SEC@RET@h/d", ".open postgres://…"),
        (".open postgres://h?password=SEC@RET", ".open postgres://…"),
        ("open('postgres://h/d?PassWord=x&pass%77ord=y&sslpassword=z&a=1')", "open('postgres://h/d?a=1')"),
        ("open('postgres://u:pa'ss@h/d')", "open('postgres://u@h/d')")
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
        ("postgres://h:1?password=SEC@RET", "%40")
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
        #expect(
            url.redacted(#"invalid percent-encoded token: "50%25off"; 50%off, two, three"#) == #"invalid percent-encoded token: "***"; ***, ***, ***"#
        )
        #expect(url.connectionString.contains("sslpassword=three"), "libpq still gets it")
    }
}

/// Issue 61, item 2: libpq's keyword/value connection strings (`host=h dbname=d`), as
/// psql takes them, are read as libpq reads them, and no password of one is ever shown.
@Suite struct PostgresKeywordValueTests {
    @Test func aConnectionStringIsReadAsLibpqReadsIt() throws {
        let plain = try PostgresURL("host=127.0.0.1 port=5432 user=quarry dbname=quarry password=SECRET")
        #expect(plain.connectionString == "host='127.0.0.1' port='5432' user='quarry' dbname='quarry' password='SECRET'")
        #expect(plain.shown == "host=127.0.0.1 port=5432 user=quarry dbname=quarry")
        #expect(plain.schema == "public" && !plain.installsTriggers)
        // White space around '=', quoted values with escapes, any case of a keyword,
        // and Quarry's own keywords taken out before libpq reads the rest.
        let quoted = try PostgresURL(#"  HOST = db  dbname='my db' password='it\'s a \\ secret' schema=Sales notify=triggers options='-c x=1' "#)
        #expect(quoted.connectionString == #"host='db' dbname='my db' password='it\'s a \\ secret' options='-c x=1'"#)
        #expect(quoted.shown == "host=db dbname='my db' schema=Sales notify=triggers options='-c x=1'")
        #expect(quoted.schema == "Sales" && quoted.installsTriggers)
        // An unquoted value takes a backslash-escaped space.
        #expect(try PostgresURL(#"dbname=a\ b"#).connectionString == "dbname='a b'")
        // libpq's messages lose the password, as written and as quoted for libpq.
        #expect(quoted.redacted(#"failed for it's a \ secret or it\'s a \\ secret"#) == "failed for *** or ***")
    }

    /// A connection string is text whose first word is a keyword of libpq's (or Quarry's
    /// schema= and notify=) followed by '='; any other text is a file's path as before.
    @Test(arguments: [
        ("host=127.0.0.1 dbname=quarry", true), ("dbname = shop", true), ("  user=ann", true),
        ("service=prod", true), ("schema=s host=h", true), ("Password=x", true),
        ("host.db", false), ("my=file.db", false), ("notes password=x", false), ("hostname=x", false),
        ("=x", false), ("data/host=x.db", false), ("./host=x.db", false), ("host", false), ("hostaddr", false)
    ])
    func whatCountsAsAConnectionString(_ text: String, _ claimed: Bool) {
        #expect(PostgresURL.isURL(text) == claimed)
    }

    /// A malformed string says what is wrong in one line, never repeating a password or a
    /// word after one (`password=a b` reads `b` as a keyword: it may be the password's end).
    @Test(arguments: [
        ("host=h password=SEC RET", "single quotes"),
        ("host=h password=SEC RET=x", "no keyword"),
        ("host=h password=SECRET pasword=SECRET", "no keyword"),
        ("password='SECRET", "no closing quote"),
        ("password=SECRET notify=x", "notify= takes one value"),
        ("password=SECRET schema=''", "schema= needs"),
        ("host=h usr=u password=SECRET", "'usr' after host=h is not a keyword libpq or Quarry knows (did you mean user?)"),
        ("host=h =x password=SECRET", "no keyword before it"),
        ("dbname=d sslpassword=SECRET RET", "single quotes")
    ])
    func malformedStringsNeverShowThePassword(_ text: String, _ said: String) {
        #expect { try PostgresURL(text) } throws: { error in
            let message = "\(error)"
            return message.contains(said) && !message.contains("SEC") && !message.contains("RET") && !message.contains("\n")
        }
    }

    /// Errors, notes and history lines lose the value of any `password=` written as a
    /// connection string writes it, quoted or not, wherever it is in the text.
    @Test(arguments: [
        (".open host=h password=SECRET dbname=d", ".open host=h password=*** dbname=d"),
        (#"x = "host=h password=SECRET""#, #"x = "host=h password=***""#),
        ("x = 'host=h password=SECRET'", "x = 'host=h password=***'"),
        (#"password = 'SEC RET\' x' user=u"#, "password = '***' user=u"),
        ("host=h sslpassword=SECRET", "host=h sslpassword=***"),
        ("PASSWORD=SECRET", "PASSWORD=***"),
        ("mypassword=x and password_hint=y", "mypassword=x and password_hint=y"),
        ("a password is needed", "a password is needed"),
        ("open('postgres://u:SECRET@h/d') password=SECRET", "open('postgres://u@h/d') password=***")
    ])
    func textLosesKeywordPasswords(_ text: String, _ kept: String) {
        #expect(URLSecrets.withoutPasswords(in: text) == kept)
    }
}
