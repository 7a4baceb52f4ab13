import Foundation
import QuarryTestSupport
import Testing

/// `export` from PostgreSQL through `COPY ... TO STDOUT (FORMAT binary)` (a request with
/// no arguments) writes the same bytes as the rows read one at a time (a request with an
/// argument, which COPY cannot take), in CSV, TSV and JSON, for every type it reads:
/// NULLs, quotes, newlines, unicode, empty text and "NA", timestamps with and without a
/// zone (fractions, BC, infinity), booleans, bytea, numeric (NaN, infinities, more
/// digits than a double holds), floats (NaN, -0, infinities) and integers at their ends.
/// Where Quarry writes what psql writes (integers, text, decimals that are not whole),
/// the CSV is byte-identical to psql's `\copy ... csv header` of the same rows.
/// Against a real server (`PostgresServer`): fails, never skips, without one.
@Suite struct PostgresCopyExportTests {
    static let schema = #"""
        CREATE TABLE mixed (id serial PRIMARY KEY, label text, n int4, s int2, big int8, r float8, f float4,
          price numeric(12,4), wide numeric, ok boolean, at timestamptz, wall timestamp, raw bytea, code varchar(10), pad char(4));
        INSERT INTO mixed (label, n, s, big, r, f, price, wide, ok, at, wall, raw, code, pad) VALUES
          ('plain', 1, 2, 9007199254740993, 2.5, 1.1, 0.99, 1.00, true, '2013-01-01 05:00:00+00', '2013-01-01 05:00:00', '\x00ff10', 'abc', 'ab'),
          ('a,b "quoted"', -2147483648, -32768, -9223372036854775808, '-0', 3.4e38, 1234.5678, 123456789012345678901234567890.123, false,
           '2021-06-30 23:59:59.123456+00', '1999-12-31 23:59:59.5', '', 'x', NULL),
          (E'line\nbreak\r\n', NULL, NULL, NULL, 1e20, 'NaN', 'NaN', -0.000001, NULL, '0044-03-15 12:00:00+00 BC', 'infinity', NULL, 'NA', 'NA'),
          ('', 0, 0, 0, 1e-7, '-Infinity', 0, 0, true, '-infinity', '2000-01-01 00:00:00.000001', '\x', '', ''),
          ('NA', 2147483647, 32767, 9223372036854775807, 'Infinity', 0.1, 12.5, 'Infinity', false,
           '294276-12-31 23:59:59.999999+00', '4713-01-01 00:00:00 BC', NULL, E'tab\there', 'ü'),
          ('\.', 7, 7, 7, 1.0, 2, 'NaN', 1e-30, true, '1970-01-01 00:00:00+00', '1969-12-31 23:59:59.999999', '\x5c2c22', 'Zoë', NULL),
          ('Zoë 東京 🚀 "x"', 8, 8, 8, -123.456, -0.5, -99.99, '-Infinity', NULL, '2013-06-30 12:34:56.7+00', NULL, '\xdeadbeef', NULL, 'abcd');
        -- Only the types Quarry writes as psql does: integers, text, decimals that are not whole.
        CREATE TABLE plain (id int PRIMARY KEY, invoice int NOT NULL, name text, note varchar(40), price numeric(10,2));
        INSERT INTO plain VALUES (1, 10, 'plain', NULL, 0.99), (2, 10, 'a,b "quoted"', E'two\nlines', 1.99),
          (3, 11, E'cr\rlf\r\n', '', -0.01), (4, 12, NULL, 'Zoë 東京 🚀', NULL), (5, 12, ' spaced ', ',', 12345678.25);
        """#

    @Test func aCopiedExportIsTheRowByRowExportByteForByte() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("copyexport", in: sandbox, schema: Self.schema)
        let result = try await sandbox.quarry(
            [
                url, "-e",
                #"""
                for _, entity in ipairs{ "mixed", "plain" } do
                  local copied = fetch{ entity, sort = { "id" } }
                  local rows = fetch{ entity, predicate = "id > %@", args = { -1 }, sort = { "id" } }
                  for _, suffix in ipairs{ "csv", "tsv", "json" } do
                    print(export(copied, entity .. "-copy." .. suffix), export(rows, entity .. "-rows." .. suffix))
                  end
                end
                -- A copy that fails halfway leaves the connection ready for the next statement.
                print(pcall(export, fetch{ "mixed", sort = { "id" } }, "/dev/full"))
                print(count("mixed"))
                """#
            ], timeout: 60)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.lines == Array(repeating: "7\t7", count: 3) + Array(repeating: "5\t5", count: 3)
                + ["false\t(command line):9: export: cannot write /dev/full: no space left on device", "7"], "\(result)")
        for entity in ["mixed", "plain"] {
            for suffix in ["csv", "tsv", "json"] {
                let copied = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("\(entity)-copy.\(suffix)")))
                let rows = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("\(entity)-rows.\(suffix)")))
                #expect(
                    copied == rows,
                    "\(entity).\(suffix):\n\(String(decoding: copied, as: UTF8.self))\nrow by row:\n\(String(decoding: rows, as: UTF8.self))")
            }
        }
        // Values that show the reading was the text path's: float4 1.1 as 1.1, -0 as -0.0,
        // NaN as nil, a numeric exact as the server writes it (0.9900, 1.00), BC and
        // infinite timestamps.
        let mixed = try sandbox.read("mixed-copy.csv")
        #expect(
            mixed.hasPrefix(
                "id,label,n,s,big,r,f,price,wide,ok,at,wall,raw,code,pad\n1,plain,1,2,9007199254740993,2.5,1.1,0.9900,1.00,true,2013-01-01T05:00:00Z,2013-01-01T05:00:00Z,AP8Q,abc,ab  \n"
            ), "\(mixed)")
        #expect(mixed.contains("\n3,\"line\nbreak\r\n\",,,,1e+20,,,-0.000001,,"), "\(mixed)")
        #expect(mixed.contains(",infinity,"), "\(mixed)")

        let psql = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/psql"),
            [
                "-qAt", url, "-c",
                #"\copy (SELECT * FROM plain ORDER BY id) TO 'plain-psql.csv' WITH (FORMAT csv, HEADER)"#
            ])
        #expect(psql.status == 0, "\(psql)")
        let theirs = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("plain-psql.csv")))
        let ours = try Data(contentsOf: URL(fileURLWithPath: sandbox.path("plain-copy.csv")))
        #expect(ours == theirs, "Quarry:\n\(String(decoding: ours, as: UTF8.self))\npsql:\n\(String(decoding: theirs, as: UTF8.self))")
    }
}
