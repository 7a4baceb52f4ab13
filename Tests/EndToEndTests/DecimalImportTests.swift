import Foundation
import QuarryTestSupport
import Testing

/// An import into a SQLite store's decimal attribute passes the check a save makes (issue
/// 61 items 1 and 3): the column keeps a double, so a value no double holds is refused in
/// one line naming the file, the row, the column and the value, and no file changes;
/// a value a double holds (`195.10`, the same number as 195.1) is imported.
@Suite struct DecimalImportTests {
    /// A store with `Price { name, amount: decimal? }` holding one row.
    private func folder() async throws -> Sandbox {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "store.db", "-e", #"entity "Price" { name = "string", amount = "decimal?" }; Price:new{ name = "kept", amount = decimal("1.5") }; save()"#
        ])
        try #require(made.status == 0, "\(made)")
        return sandbox
    }

    private func files(_ sandbox: Sandbox) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try sandbox.listing() { files[name] = FileManager.default.contents(atPath: sandbox.path(name)) }
        return files
    }

    static let refusals: [(file: String, content: String, refusal: String)] = [
        (
            "p.csv", "name,amount\na,195.10\nb,0.12345678901234567\nc,2\n",
            "import: p.csv:3: 'amount' is decimal 0.12345678901234567, more digits than the double this store keeps it as "
                + "(it would read back as 0.12345678901234566); nothing was written"
        ),
        (
            "wide.csv", "name,amount\na,1\nb,12345678901234567890123\n",
            "import: wide.csv:3: 'amount' is decimal 12345678901234567890123, more digits than the double this store keeps it as "
                + "(it would read back as 12345678901234568000000); nothing was written"
        ),
        (
            "e.csv", "name,amount\na,1e400\n",
            "import: e.csv:2: 'amount' is decimal 1e400, more digits than the double this store keeps it as (it is past a double's range); nothing was written"
        ),
        (
            "p.json", #"[{"name": "a", "amount": 195.10}, {"name": "b", "amount": 0.12345678901234567}]"#,
            "import: p.json: element 2: 'amount' is decimal 0.12345678901234567, more digits than the double this store keeps it as "
                + "(it would read back as 0.12345678901234566); nothing was written"
        ),
        (
            "s.json", #"[{"name": "a", "amount": 2.00000000000000001}]"#,
            "import: s.json: element 1: 'amount' is decimal 2.00000000000000001, more digits than the double this store keeps it as "
                + "(it would read back as 2.0); nothing was written"
        )
    ]

    @Test(arguments: refusals)
    func aDecimalNoDoubleHoldsIsRefusedWithNothingWritten(_ file: String, _ content: String, _ refusal: String) async throws {
        let sandbox = try await folder()
        _ = try sandbox.write(file, content)
        let before = try files(sandbox)
        let result = try await sandbox.quarry(["store.db", "-e", "import('\(file)', { entity = 'Price' })"])
        #expect(result.status == 1 && result.errorLines == ["(command line):1: " + refusal], "\(result)")
        #expect(try files(sandbox) == before)
        let count = try await sandbox.quarry(["store.db", "-e", "print(count('Price'))"])
        #expect(count.stdout == "1\n", "\(count)")
    }

    /// JSON after a byte-order mark, or in UTF-16 or UTF-32, is read as UTF-8 is: its
    /// numbers keep their digits, so the same decimal is refused the same way (read whole,
    /// they were made doubles and imported rounded).
    @Test(arguments: [
        ("bom", [UInt8]([0xEF, 0xBB, 0xBF])), ("utf16le", [0xFF, 0xFE]), ("utf16be", [0xFE, 0xFF]), ("utf16le-nomark", []),
        ("utf32be", [0, 0, 0xFE, 0xFF])
    ])
    func aDecimalInJSONOfAnotherEncodingIsRefusedAlike(_ name: String, _ mark: [UInt8]) async throws {
        let sandbox = try await folder()
        let text = #"[{"name": "a", "amount": 195.10}, {"name": "b", "amount": 0.12345678901234567}]"#
        let body: [UInt8]
        switch name {
        case "utf16le", "utf16le-nomark": body = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        case "utf16be": body = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case "utf32be": body = text.unicodeScalars.flatMap { [0, 0, UInt8($0.value >> 8), UInt8($0.value & 0xFF)] }
        default: body = Array(text.utf8)
        }
        try Data(mark + body).write(to: URL(fileURLWithPath: sandbox.path("p.json")))
        let before = try files(sandbox)
        let result = try await sandbox.quarry(["store.db", "-e", "import('p.json', { entity = 'Price' })"])
        #expect(
            result.status == 1
                && result.errorLines == [
                    "(command line):1: import: p.json: element 2: 'amount' is decimal 0.12345678901234567, more digits than the double "
                        + "this store keeps it as (it would read back as 0.12345678901234566); nothing was written"
                ], "\(name): \(result)")
        #expect(try files(sandbox) == before)
        // Without the long decimal, the same file imports its rows.
        let short = text.replacingOccurrences(of: "0.12345678901234567", with: "0.5")
        let shortBody: [UInt8] = name.hasPrefix("utf16le") ? short.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } : Array(short.utf8)
        if name == "bom" || name.hasPrefix("utf16le") {
            try Data(mark + shortBody).write(to: URL(fileURLWithPath: sandbox.path("q.json")))
            let ok = try await sandbox.quarry(["store.db", "-e", "print(import('q.json', { entity = 'Price' }), count('Price', 'amount == 0.5'))"])
            #expect(ok.stdout == "2\t1\n", "\(name): \(ok)")
        }
    }

    /// Decimals a double holds go in, each as the number it is: `195.10` is 195.1.
    @Test(arguments: ["p.csv", "p.json"])
    func decimalsADoubleHoldsAreImported(_ file: String) async throws {
        let sandbox = try await folder()
        if file.hasSuffix(".csv") {
            _ = try sandbox.write(file, "name,amount\na,195.10\nb,-0.1\nc,\nd,1e5\n")
        } else {
            _ = try sandbox.write(
                file, #"[{"name": "a", "amount": 195.10}, {"name": "b", "amount": -0.1}, {"name": "c"}, {"name": "d", "amount": 1e5}]"#)
        }
        let result = try await sandbox.quarry([
            "store.db", "-e",
            "import('\(file)', { entity = 'Price' }); print(count('Price'), count('Price', 'amount == 195.1'), count('Price', 'amount == -0.1'), "
                + "count('Price', 'amount == nil'), count('Price', 'amount == 100000'))"
        ])
        #expect(result.status == 0 && result.stdout == "5\t1\t1\t1\t1\n", "\(result)")
    }

    /// A new entity whose column is declared decimal meets the same check, and no table is left.
    @Test func aDeclaredDecimalColumnIsCheckedToo() async throws {
        let sandbox = try await folder()
        _ = try sandbox.write("n.csv", "v\n0.5\n0.30000000000000000001\n")
        let before = try files(sandbox)
        let result = try await sandbox.quarry(["store.db", "-e", "import('n.csv', { entity = 'N', types = { v = 'decimal' } })"])
        #expect(
            result.status == 1 && result.errorLines.count == 1 && result.stderr.contains("n.csv:3: 'v' is decimal 0.30000000000000000001"),
            "\(result)")
        #expect(try files(sandbox) == before)
        let entities = try await sandbox.quarry(["store.db", "-e", "print(#entities())"])
        #expect(entities.stdout == "1\n", "\(entities)")
    }

    /// On PostgreSQL a decimal is `numeric`, which keeps every digit: an import keeps them
    /// all, from CSV and from JSON (it wrote each cell's nearest double before).
    @Test func aPostgreSQLNumericColumnTakesEveryDigit() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database(
            "decimport", in: sandbox, schema: "CREATE TABLE price (id serial PRIMARY KEY, name text, amount numeric);")
        let long = "123456789012345678901234567890.123456789012345678901"
        _ = try sandbox.write("p.csv", "name,amount\na,0.12345678901234567\nb,\(long)\nc,195.10\n")
        _ = try sandbox.write("p.json", #"[{"name": "d", "amount": 0.12345678901234567}, {"name": "e", "amount": -\#(long)}]"#)
        let result = try await sandbox.quarry([
            url, "-e",
            "import('p.csv', { entity = 'price' }); import('p.json', { entity = 'price' }); "
                + "for _, p in ipairs(fetch{ 'price', sort = 'name' }) do print(p.name, p.amount) end"
        ])
        #expect(
            result.status == 0
                && result.stdout == "a\t0.12345678901234567\nb\t\(long)\nc\t195.10\nd\t0.12345678901234567\ne\t-\(long)\n", "\(result)")
        let server = try await PostgresDecimalTests.psqlRows(sandbox, url, "SELECT amount FROM price ORDER BY name")
        #expect(server == "0.12345678901234567\n\(long)\n195.10\n0.12345678901234567\n-\(long)\n", "\(server)")
    }
}
