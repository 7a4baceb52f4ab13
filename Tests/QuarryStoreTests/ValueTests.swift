import QuarryModel
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// Coercion of values to attribute types, decoding of stored columns, and dates in ISO 8601.
@Suite struct CoercionTests {
    private func coerced(_ type: AttributeType, _ value: Value) -> Value? {
        try? type.coerce(value).get()
    }

    private func failure(_ type: AttributeType, _ value: Value) -> CoercionFailure? {
        if case .failure(let f) = type.coerce(value) { return f }
        return nil
    }

    @Test func int16AcceptsItsRangeAndRejectsBeyond() {
        #expect(coerced(.int16, .integer(32767)) == .integer(32767))
        #expect(coerced(.int16, .integer(-32768)) == .integer(-32768))
        #expect(coerced(.int16, .integer(0)) == .integer(0))
        #expect(failure(.int16, .integer(32768)) != nil)
        #expect(failure(.int16, .integer(-32769)) != nil)
        #expect(failure(.int16, .real(40000)) != nil)
        let f = failure(.int16, .integer(70000))
        #expect(f?.expected == "int16")
        #expect(f?.given == .integer(70000))
    }

    @Test func int32AndInt64Ranges() {
        #expect(coerced(.int32, .integer(Int64(Int32.max))) == .integer(Int64(Int32.max)))
        #expect(failure(.int32, .integer(Int64(Int32.max) + 1)) != nil)
        #expect(failure(.int32, .integer(Int64(Int32.min) - 1)) != nil)
        #expect(coerced(.int64, .integer(.max)) == .integer(.max))
        #expect(coerced(.int64, .integer(.min)) == .integer(.min))
        #expect(failure(.int64, .real(1e19)) != nil)
        #expect(failure(.int64, .real(.nan)) != nil)
        #expect(failure(.int64, .real(.infinity)) != nil)
    }

    @Test func integersAcceptIntegralRealsOnly() {
        #expect(coerced(.int64, .real(3.0)) == .integer(3))
        #expect(coerced(.int16, .real(-12.0)) == .integer(-12))
        #expect(failure(.int64, .real(3.5)) != nil)
        #expect(failure(.int32, .text("3")) != nil)
        #expect(failure(.int64, .bool(true)) != nil)
    }

    @Test func doubleAndDecimalAcceptIntegers() {
        #expect(coerced(.double, .integer(3)) == .real(3.0))
        #expect(coerced(.double, .integer(-7)) == .real(-7.0))
        #expect(coerced(.decimal, .integer(2)) == .decimal("2"))
        #expect(coerced(.double, .real(2.5)) == .real(2.5))
        #expect(failure(.double, .text("2.5"))?.expected == "double")
        #expect(failure(.double, .bool(false)) != nil)
    }

    @Test func dateFromISOStringAndFromDate() {
        #expect(coerced(.date, .text("2024-01-22T16:26:12Z")) == .date(1_705_940_772))
        #expect(coerced(.date, .text("2024-01-22")) == .date(1_705_881_600))
        #expect(coerced(.date, .text("2024-01-22 16:26:12")) == .date(1_705_940_772))
        #expect(coerced(.date, .text("2024-01-22T18:26:12+02:00")) == .date(1_705_940_772))
        #expect(coerced(.date, .text("2024-01-22T11:26:12-0500")) == .date(1_705_940_772))
        #expect(coerced(.date, .text("2024-01-22T16:26:12.25Z")) == .date(1705940772.25))
        #expect(coerced(.date, .date(12.5)) == .date(12.5))
        #expect(failure(.date, .text("yesterday"))?.expected == "date")
        #expect(failure(.date, .text("2024-13-01")) != nil)
        #expect(failure(.date, .text("2024-01-22T25:00:00Z")) != nil)
        #expect(failure(.date, .integer(5)) != nil)
    }

    @Test func uuidIsCheckedAndUppercased() {
        let lower = "123e4567-e89b-12d3-a456-426614174000"
        #expect(coerced(.uuid, .text(lower)) == .text(lower.uppercased()))
        #expect(failure(.uuid, .text("123e4567-e89b-12d3-a456-42661417400")) != nil) // 11 digits in the last group
        #expect(failure(.uuid, .text("123e4567e89b12d3a456426614174000")) != nil)
        #expect(failure(.uuid, .text("g23e4567-e89b-12d3-a456-426614174000")) != nil)
        #expect(failure(.uuid, .integer(1)) != nil)
    }

    @Test func boolAcceptsBooleansOnly() {
        #expect(coerced(.bool, .bool(true)) == .bool(true))
        #expect(coerced(.bool, .bool(false)) == .bool(false))
        #expect(failure(.bool, .text("true"))?.expected == "bool")
        #expect(failure(.bool, .integer(1)) != nil)
    }

    @Test func stringBinaryJSON() {
        #expect(coerced(.string, .text("café")) == .text("café"))
        #expect(failure(.string, .integer(1)) != nil)
        #expect(coerced(.binary, .text("ab")) == .blob([0x61, 0x62]))
        #expect(coerced(.binary, .blob([1, 2])) == .blob([1, 2]))
        #expect(coerced(.json, .text("{}")) == .text("{}"))
    }

    @Test(arguments: AttributeType.allCases)
    func nilFitsEveryType(_ type: AttributeType) {
        #expect(coerced(type, .null) == .null)
    }

    @Test func typeNames() {
        #expect(AttributeType(name: "int") == .int64)
        #expect(AttributeType(name: "int16") == .int16)
        #expect(AttributeType(name: "integer") == nil)
    }

    @Test func decodeTrustsTheAttributeTypeOverTheStorageClass() {
        #expect(AttributeType.bool.decode(.integer(0)) == .bool(false))
        #expect(AttributeType.bool.decode(.integer(2)) == .bool(true))
        #expect(AttributeType.date.decode(.integer(10)) == .date(10))
        #expect(AttributeType.date.decode(.real(10.5)) == .date(10.5))
        #expect(AttributeType.date.decode(.text("2024-01-22T16:26:12Z")) == .date(1_705_940_772))
        // A double attribute's cell SQLite holds as an integer (a NUMERIC column's 4) reads as
        // that integer, as sqlite3 shows it; a real stays real.
        #expect(AttributeType.double.decode(.integer(4)) == .integer(4))
        #expect(AttributeType.double.decode(.real(4)) == .real(4))
        #expect(AttributeType.string.decode(.text("x")) == .text("x"))
        #expect(AttributeType.int64.decode(.null) == .null)
    }

    @Test func setValueReportsTypeMismatchWithEntityAndKey() throws {
        let context = try OpenFileRequest.open(path: nil)
        try context.define(
            EntityDescription(
                name: "Item",
                attributes: [
                    AttributeDescription(name: "small", type: .int16, isOptional: true),
                    AttributeDescription(name: "title", type: .string)
                ]))
        let object = try context.insert(into: "Item", values: ["title": .text("a")])
        #expect(throws: StoreError.typeMismatch(entity: "Item", key: "small", expected: "int16", given: "integer (40000)")) {
            try object.setValue(.integer(40000), forKey: "small")
        }
        do {
            try object.setValue(.text("many"), forKey: "small")
            Issue.record("a string was accepted for an int16")
        } catch let error as StoreError {
            #expect(error.description == "Item.small expects int16, got string (\"many\")")
        }
        #expect(throws: StoreError.self) { try object.setValue(.null, forKey: "title") }
        #expect(throws: StoreError.unknownKey(entity: "Item", key: "titel", suggestion: "title")) {
            try object.setValue(.text("x"), forKey: "titel")
        }
        try object.setValue(.real(12.0), forKey: "small")
        #expect(try object.value(forKey: "small") == .integer(12))
    }
}

@Suite struct ISO8601Tests {
    @Test(arguments: [
        "2024-01-22T16:26:12Z",
        "1970-01-01T00:00:00Z",
        "1969-07-20T20:17:40Z",
        "2000-02-29T23:59:59Z",
        "1900-03-01T00:00:00Z",
        "2038-01-19T03:14:08Z"
    ])
    func formatOfParseIsIdentity(_ text: String) throws {
        let seconds = try #require(Value.parseISO8601(text))
        #expect(Value.iso8601(seconds) == text)
    }

    /// Fractions are written as far as milliseconds (how many digits is the formatter's
    /// choice) and read back exactly.
    @Test(arguments: [
        ("2024-01-22T16:26:12.250Z", "2024-01-22T16:26:12."),
        ("2024-01-22T16:26:12.001Z", "2024-01-22T16:26:12.001"),
        ("1900-03-01T00:00:00.5Z", "1900-03-01T00:00:00.5"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999")
    ])
    func fractionsSurviveFormatting(_ text: String, _ prefix: String) throws {
        let seconds = try #require(Value.parseISO8601(text))
        let formatted = Value.iso8601(seconds)
        #expect(formatted.hasPrefix(prefix) && formatted.hasSuffix("Z"), "\(formatted)")
        #expect(Value.parseISO8601(formatted) == seconds, "\(formatted)")
    }

    @Test func knownInstants() {
        #expect(Value.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(Value.iso8601(1_705_940_772) == "2024-01-22T16:26:12Z")
        #expect(Value.iso8601(-14_182_940) == "1969-07-20T20:17:40Z")
        #expect(Value.iso8601(0.5).hasPrefix("1970-01-01T00:00:00.5"))
        #expect(Value.iso8601(-0.5).hasPrefix("1969-12-31T23:59:59.5"))
        #expect(Value.parseISO8601("1969-07-20T20:17:40Z") == -14_182_940)
        #expect(Value.parseISO8601("2024-01-22T16:26:12.25Z") == 1705940772.25)
    }

    @Test func parseOfFormatIsIdentityToTheMillisecond() throws {
        var rng = SplitMix64(seed: 8601)
        for _ in 0..<2000 {
            let millis = Int64(rng.next() % 8_000_000_000_000) - 3_000_000_000_000
            let seconds = Double(millis) / 1000
            let text = Value.iso8601(seconds)
            let back = try #require(Value.parseISO8601(text), "\(text) did not parse")
            #expect(abs(back - seconds) < 0.0005, "\(seconds) formatted as \(text), parsed back as \(back)")
        }
    }

    /// Sub-millisecond fractions close to the next second must carry into the seconds.
    @Test func formattingRoundsWithoutLosingTheCarry() throws {
        for seconds in [1705940772.9996, 0.99951, 59.9999] {
            let text = Value.iso8601(seconds)
            let back = try #require(Value.parseISO8601(text))
            #expect(abs(back - seconds) <= 0.0005, "\(seconds) formatted as \(text)")
        }
    }

    @Test func rejectsTextThatIsNotADate() {
        for text in ["", "2024", "2024-1-22", "22/01/2024", "2024-01-22T16:26:12ZZ", "2024-00-10", "2024-01-32", "2024-01-22T16:60:00Z", "now"] {
            #expect(Value.parseISO8601(text) == nil, "\(text) should not parse")
        }
    }

    /// Days that the month does not have are not dates (timegm would roll them over).
    @Test func rejectsDaysTheMonthDoesNotHave() {
        #expect(Value.parseISO8601("2024-02-29") != nil)
        for text in ["2023-02-29", "2024-02-30", "2024-04-31"] {
            #expect(Value.parseISO8601(text) == nil, "\(text) should not parse")
        }
    }
}

@Suite struct SuggestionTests {
    @Test func closestMatchFindsTyposOnly() {
        #expect(closestMatch(to: "titel", in: ["timestamp", "title"]) == "title")
        #expect(closestMatch(to: "Itme", in: ["Item", "Person"]) == "Item")
        #expect(closestMatch(to: "TITLE", in: ["title"]) == "title")
        #expect(closestMatch(to: "categoryId", in: ["category", "categoryID"]) == "categoryID")
        #expect(closestMatch(to: "xyz", in: ["title", "owner"]) == nil)
        #expect(closestMatch(to: "titel", in: []) == nil)
        // A third of the length is the most a typo may differ by.
        #expect(closestMatch(to: "abcdef", in: ["abxyef"]) == "abxyef")
        #expect(closestMatch(to: "abcdef", in: ["axyzef"]) == nil)
    }

    @Test func editDistance() {
        #expect(QuarryModel.editDistance("kitten", "sitting") == 3)
        #expect(QuarryModel.editDistance("", "abc") == 3)
        #expect(QuarryModel.editDistance("abc", "") == 3)
        #expect(QuarryModel.editDistance("abc", "abc") == 0)
        #expect(QuarryModel.editDistance("ab", "ba") == 1)
        #expect(QuarryModel.editDistance("title", "titel") == 1)
    }

    @Test func messagesCarryTheSuggestion() throws {
        let entity = EntityDescription(name: "Item", attributes: [AttributeDescription(name: "title", type: .string)])
        #expect(entity.unknownKey("titel").description == "unknown key 'titel' on entity Item (did you mean 'title'?)")
        #expect(entity.unknownKey("zzz").description == "unknown key 'zzz' on entity Item")
        let context = try OpenFileRequest.open(path: nil)
        try context.define(entity)
        #expect(throws: StoreError.unknownEntity(name: "Itme", suggestion: "Item")) { try context.entity(named: "Itme") }
        #expect(StoreError.unknownEntity(name: "Itme", suggestion: "Item").description == "unknown entity 'Itme' (did you mean 'Item'?)")
    }
}
