import Foundation
import QuarryModel
import QuarryPredicates
import QuarryTestSupport
import Testing

/// Decimals are exact at any size PostgreSQL's `numeric` holds, or refuse in one line
/// (issue 61, item 1): `ExactDecimal`'s text, arithmetic, scales and bounds; the three
/// failures reported (a trap on 1e-70 squared, 38-digit approximation, "not a decimal"
/// for 1e200); and a property test against the server's own numeric arithmetic.
@Suite struct ExactDecimalTests {
    private func d(_ text: String) throws -> ExactDecimal { try ExactDecimal(parsing: text) }

    /// Text in, text out, as `numeric_in` and `numeric_out` (values taken from psql 15).
    @Test func readsAndPrintsAsTheServer() throws {
        let cases: [(String, String)] = [
            ("195.10", "195.10"), ("  +001.50 ", "1.50"), ("-0", "0"), ("-0.00", "0.00"), (".5", "0.5"), ("5.", "5"),
            ("1e3", "1000"), ("1.5e3", "1500"), ("1.50e-3", "0.00150"), ("1E-70", "0." + String(repeating: "0", count: 69) + "1"),
            ("0e-5", "0.00000"), ("-12.345", "-12.345"), ("1e+300", "1" + String(repeating: "0", count: 300))
        ]
        for (input, printed) in cases { #expect(try d(input).description == printed, "\(input)") }
        for bad in ["", ".", "abc", "1e", "1e+", "--1", "1.2.3", "1_000", "0x10", "nan", "Infinity", "1 2", "e5"] {
            #expect(throws: ExactDecimal.Failure.notDecimal, "\(bad)") { try ExactDecimal(parsing: bad) }
        }
        #expect(ExactDecimal(double: 0.1)?.description == "0.1")
        #expect(ExactDecimal(double: 1e300)?.description == "1" + String(repeating: "0", count: 300))
        #expect(ExactDecimal(double: .infinity) == nil && ExactDecimal(double: .nan) == nil)
    }

    /// 131,072 digits before the point and 16,383 after are held; one more is refused,
    /// whatever way it is written, without building the number first.
    @Test func holdsNumericsBoundsAndRefusesPastThem() throws {
        // (The widest value, 131,072 digits and 16,383 more, is held too: `DecimalDigitsTests`
        // reads, prints and adds it.) Refusals are decided before any number is built.
        let wide = String(repeating: "9", count: 4_000) + "." + String(repeating: "9", count: 16_383)
        #expect(try d(wide).description == wide)
        #expect(try d("1e-16383").scale == 16_383)
        #expect(try d("0." + String(repeating: "0", count: 16_382) + "1").description.hasSuffix("0001"))
        for past in [
            "1e131072", "1" + String(repeating: "0", count: 131_072), "1e-16384", "0." + String(repeating: "0", count: 16_384),
            "1e999999999999", "1e-999999999999"
        ] {
            #expect(throws: ExactDecimal.Failure.overflow) { try ExactDecimal(parsing: past) }
        }
        #expect(!ExactDecimal.Failure.overflow.description.contains("\n"))
        // A sum past the bound is refused, not wrapped or trapped.
        let big = try d("9e131071")
        #expect(throws: ExactDecimal.Failure.overflow) { try big.adding(big) }
        #expect(throws: ExactDecimal.Failure.overflow) { try big.multiplying(d("10")) }
        #expect(throws: ExactDecimal.Failure.divisionByZero) { try big.dividing(by: d("0.000")) }
    }

    /// Scales as the server keeps them, division's as `select_div_scale` picks, rounding
    /// half away from zero (each expectation is psql 15's answer).
    @Test func computesWithTheServersScales() throws {
        #expect(try d("0.10").adding(d("0.20")).description == "0.30")
        #expect(try d("1.5").subtracting(d("1.50")).description == "0.00")
        #expect(try d("1.5").multiplying(d("2")).description == "3.0")
        #expect(try d("1e-70").multiplying(d("1e-70")).description == "0." + String(repeating: "0", count: 139) + "1")
        #expect(try d("1").dividing(by: d("3")).description == "0.33333333333333333333")
        #expect(try d("1").dividing(by: d("1")).description == "1.00000000000000000000")
        #expect(try d("0").dividing(by: d("7")).description == "0.00000000000000000000")
        #expect(try d("2").dividing(by: d("3")).description == "0.66666666666666666667")
        #expect(try d("-2").dividing(by: d("3")).description == "-0.66666666666666666667")
        #expect(try d("5").dividing(by: d("-3")).description == "-1.6666666666666667")
        #expect(try d("12345.678").dividing(by: d("0.001")).description == "12345678.000000000000")
        #expect(try d("3").dividing(by: d("2")).description == "1.5000000000000000")
        // A product past 16,383 digits after the point is rounded there, as the server rounds it.
        let tiny = try d("1e-16383")
        #expect(try tiny.multiplying(d("0.5")).description.hasSuffix("00001"))
        #expect(try d("-1e-16383").multiplying(d("0.5")).description.hasPrefix("-0.000"))
        #expect(try tiny.multiplying(d("0.49")).description.hasSuffix("00000"))
        #expect(try tiny.multiplying(d("0.49")).scale == 16_383)
        #expect(try d("1e-10000").multiplying(d("1e-10000")).scale == 16_383)
    }

    /// Order by value, whatever the scale, at any size.
    @Test func comparesExactly() throws {
        let a = "1" + String(repeating: "0", count: 39) + "1"
        let b = "1" + String(repeating: "0", count: 39) + "2"
        #expect(try d(a) < d(b) && d(a) != d(b))
        #expect(try d("1.0") == d("1.000") && d("-0") == d("0.00"))
        #expect(try d("1e-16383") > d("0") && d("-1e-16383") < d("0") && d("1e-16383") < d("1e-16382"))
        #expect(try d("-5") < d("-4.99999999999999999999999999999999999999999"))
        #expect(try d("12.00").int64 == 12 && d("12.5").int64 == nil && d("1e30").int64 == nil)
    }

    /// The three failures of the issue, in Lua: no trap, no approximation, no refusal of
    /// what the server takes.
    @Test func reportedFailuresInLua() throws {
        let h = try Harness()
        #expect(
            h.string(#"select(2, pcall(function() return decimal("1e-70") * decimal("1e-70") end))"#)
                == "0." + String(repeating: "0", count: 139) + "1")
        let big1 = #"decimal("1" .. ("0"):rep(39) .. "1")"#
        let big2 = #"decimal("1" .. ("0"):rep(39) .. "2")"#
        #expect(h.string("\(big1) == \(big2)") == "false")
        #expect(h.string("\(big1) - \(big2)") == "-1")
        #expect(h.string("\(big1) < \(big2)") == "true")
        #expect(h.string(#"decimal("1e200")"#) == "1" + String(repeating: "0", count: 200))
        #expect(h.string("decimal(1e300)") == "1" + String(repeating: "0", count: 300))
        #expect(h.string("typeof(decimal(1e300))") == "decimal")
        #expect(h.string("decimal(1) / 3") == "0.33333333333333333333")
        #expect(h.string(#"decimal("0.10") + 0.2"#) == "0.30")
        // Past the bounds: one line, caught by pcall, the state still usable.
        // (A sum or product past 131,072 digits is refused too: holdsNumericsBoundsAndRefusesPastThem.)
        let past = h.error(#"decimal("1e131072")"#)
        #expect(past.contains("decimal out of range") && !past.contains("\n"))
        #expect(h.error(#"return decimal(1) / 0"#).contains("decimal division by zero"))
        #expect(h.error("decimal(1/0)").contains("finite number"))
        #expect(h.string("1 + 1") == "2")
    }

    /// In memory, predicates compute and compare as the server does past 38 digits.
    @Test func predicateEvaluationIsExact() throws {
        let a = Value.decimal("1" + String(repeating: "0", count: 40))
        let b = Value.decimal("1" + String(repeating: "0", count: 39) + "1")
        #expect(SQLOrdering.compare(a, b) == -1)
        #expect(ExpressionValues.arithmetic(.add, a, .integer(1)) == b)
        #expect(
            ExpressionValues.arithmetic(.multiply, .decimal("1e-70"), .decimal("1e-70")) == .decimal("0." + String(repeating: "0", count: 139) + "1"))
        #expect(ExpressionValues.aggregate(.sum, [a, b, .decimal("0.50")]) == .decimal("2" + String(repeating: "0", count: 39) + "1.50"))
        #expect(ExpressionValues.aggregate(.avg, [.decimal("1"), .decimal("2")]) == .decimal("1.5000000000000000"))
        #expect(ExpressionValues.arithmetic(.divide, .decimal("1"), .integer(3)) == .decimal("0.33333333333333333333"))
        #expect(ExpressionValues.arithmetic(.divide, .decimal("1"), .decimal("0.00")) == .null)
    }

    // MARK: Against the server

    /// A random decimal of up to `maxDigits` digits: a sign, a scale from none to past its
    /// digits (leading zeros after the point), small ones often.
    private static func randomDecimal(_ rng: inout SplitMix64, maxDigits: Int) -> String {
        let count = rng.chance(0.4) ? rng.int(1...20) : rng.int(1...maxDigits)
        var digits = String((0..<count).map { _ in Character(String(rng.int(0...9))) })
        if rng.chance(0.05) { digits = "0" }
        let scale = rng.chance(0.3) ? 0 : rng.int(0...min(count + 10, maxDigits))
        var text = digits
        if scale > 0 {
            if text.count <= scale { text = String(repeating: "0", count: scale - text.count + 1) + text }
            text.insert(".", at: text.index(text.endIndex, offsetBy: -scale))
        }
        return (rng.chance(0.5) ? "-" : "") + text
    }

    /// `+ - * /`, comparisons and sums of random values of up to 1,000 digits give, to the
    /// digit, what PostgreSQL 15's numeric gives: `ExactDecimal`, Lua's decimals and the
    /// in-memory predicate evaluator alike.
    @Test func arithmeticMatchesPostgreSQLsNumeric() throws {
        let url = try PostgresServer.url()
        var rng = SplitMix64(seed: 0x61_DEC1)
        var pairs: [(String, String)] = []
        for i in 0..<300 {
            let a = Self.randomDecimal(&rng, maxDigits: 1000)
            // Some pairs equal in value (another scale), some the same magnitude.
            let b: String
            switch i % 10 {
            case 0: b = a.contains(".") ? a + "00" : a + ".0"
            case 1: b = String(a.dropLast()) + (a.last == "1" ? "2" : "1")
            default: b = Self.randomDecimal(&rng, maxDigits: 1000)
            }
            pairs.append((a, b))
        }
        let rows = pairs.enumerated().map { "(\($0.offset), '\($0.element.0)'::numeric, '\($0.element.1)'::numeric)" }
        let query = """
            SELECT i, a, b, a + b, a - b, a * b, CASE WHEN b = 0 THEN 'zero' ELSE (a / b)::text END,
              CASE WHEN a < b THEN -1 WHEN a > b THEN 1 ELSE 0 END
            FROM (VALUES \(rows.joined(separator: ",\n"))) AS t(i, a, b) ORDER BY i;
            SELECT sum(a), sum(b), avg(a) FROM (VALUES \(rows.joined(separator: ",\n"))) AS t(i, a, b);
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decimal-\(UUID().uuidString).sql")
        try query.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let psql = try Subprocess.run("/usr/bin/psql", [url, "-X", "-v", "ON_ERROR_STOP=1", "-At", "-F", "|", "-f", file.path])
        let output = String(decoding: psql.output, as: UTF8.self)
        try #require(psql.status == 0, "psql failed: \(String(decoding: psql.errors, as: UTF8.self))")
        let lines = output.split(separator: "\n").map(String.init)
        try #require(lines.count == pairs.count + 1, "psql gave \(lines.count) lines")

        let h = try Harness()
        var checked = 0
        for (i, line) in lines.prefix(pairs.count).enumerated() {
            let f = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            try #require(f.count == 8)
            let (a, b) = (try d(pairs[i].0), try d(pairs[i].1))
            // The server's own text of each operand, as Quarry prints it.
            #expect(a.description == f[1] && b.description == f[2], "operands of row \(i)")
            #expect(try a.adding(b).description == f[3], "\(i): a + b")
            #expect(try a.subtracting(b).description == f[4], "\(i): a - b")
            #expect(try a.multiplying(b).description == f[5], "\(i): a * b")
            if f[6] == "zero" {
                #expect(throws: ExactDecimal.Failure.divisionByZero) { try a.dividing(by: b) }
            } else {
                #expect(try a.dividing(by: b).description == f[6], "\(i): a / b of \(pairs[i])")
            }
            #expect(ExactDecimal.compare(a, b) == Int(f[7]), "\(i): compare")
            // The evaluator behind p:matches, and Lua's decimals, answer alike.
            #expect(SQLOrdering.compare(.decimal(pairs[i].0), .decimal(pairs[i].1)) == Int(f[7]), "\(i): evaluator compare")
            #expect(ExpressionValues.arithmetic(.multiply, .decimal(pairs[i].0), .decimal(pairs[i].1)) == .decimal(f[5]), "\(i): evaluator *")
            if f[6] != "zero" {
                #expect(ExpressionValues.arithmetic(.divide, .decimal(pairs[i].0), .decimal(pairs[i].1)) == .decimal(f[6]), "\(i): evaluator /")
            }
            if i % 10 < 3 {
                let lua = "decimal('\(pairs[i].0)')"
                let lub = "decimal('\(pairs[i].1)')"
                #expect(h.string("\(lua) + \(lub)") == f[3], "\(i): Lua +")
                #expect(h.string("\(lua) * \(lub)") == f[5], "\(i): Lua *")
                if f[6] != "zero" { #expect(h.string("\(lua) / \(lub)") == f[6], "\(i): Lua /") }
                #expect(h.string("\(lua) < \(lub)") == String(f[7] == "-1"), "\(i): Lua <")
            }
            checked += 1
        }
        #expect(checked == pairs.count)
        let sums = lines[pairs.count].split(separator: "|").map(String.init)
        try #require(sums.count == 3)
        #expect(ExpressionValues.aggregate(.sum, pairs.map { .decimal($0.0) }) == .decimal(sums[0]))
        #expect(ExpressionValues.aggregate(.sum, pairs.map { .decimal($0.1) }) == .decimal(sums[1]))
        #expect(ExpressionValues.aggregate(.avg, pairs.map { .decimal($0.0) }) == .decimal(sums[2]))
    }
}
