import QuarryModel
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryPostgreSQL
@testable import QuarryStore

/// "One line that says what, where and what would be right" is a property of the one
/// renderer, proved here once for any parts, and for every kind of `StoreError`.
@Suite struct ErrorRenderingTests {
    /// An error made of whatever parts a test gives.
    struct Parts: QuarryError {
        var operation: String?
        var message: String
        var location: ErrorLocation?
        var suggestion: String?
        var remedy: String?
    }

    /// Parts that have broken messages before: line breaks of every kind, NUL, escape
    /// sequences, empty text, and names of a megabyte (labelled, so the test log stays small).
    struct Sample: CustomTestStringConvertible, Sendable {
        let label: String
        let text: String
        var testDescription: String { label }
    }

    static let adversarial: [Sample] = [
        Sample(label: "empty", text: ""), Sample(label: "plain", text: "plain"), Sample(label: "LF", text: "a\nb"),
        Sample(label: "CR", text: "a\rb"), Sample(label: "CRLF", text: "a\r\nb"), Sample(label: "NUL", text: "nul\0inside"),
        Sample(label: "tab", text: "tab\there"), Sample(label: "ANSI escape", text: "\u{1B}[31mred\u{1B}[0m"),
        Sample(label: "U+2028", text: "line\u{2028}separator"), Sample(label: "U+2029", text: "para\u{2029}graph"),
        Sample(label: "NEL", text: "next\u{85}line"), Sample(label: "DEL", text: "del\u{7F}"), Sample(label: "non-ASCII", text: "é—日本語"),
        Sample(label: "1 MB name", text: String(repeating: "x", count: 1_000_000)),
        Sample(label: "300k newlines", text: String(repeating: "\n", count: 300_000)),
        Sample(label: "200k NULs", text: String(repeating: "\0", count: 200_000) + "end")
    ]

    static func isOneLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}" }
            && !text.contains(where: \.isNewline)
    }

    @Test func theOrderIsOperationPlaceMessageSuggestionColumnRemedy() {
        #expect(
            Parts(operation: "import", message: "expected 2 fields, got 3", location: .file(path: "data.csv", line: 3, column: 5)).description
                == "import: data.csv:3:5: expected 2 fields, got 3")
        #expect(
            Parts(operation: "import", message: "the file is empty", location: .file(path: "data.csv", line: nil, column: 9)).description
                == "import: data.csv: the file is empty")
        #expect(
            Parts(operation: "predicate", message: "unknown key path 'titel' on entity Item", location: .column(1), suggestion: "title").description
                == "predicate: unknown key path 'titel' on entity Item (did you mean 'title'?) at column 1")
        #expect(
            Parts(message: "unknown mode 'tabel'", suggestion: "table", remedy: "modes: table, box").description
                == "unknown mode 'tabel' (did you mean 'table'?); modes: table, box")
        #expect(Parts(operation: "", message: "m", remedy: "").description == "m")
        #expect(Parts(message: "").description == "")
    }

    @Test(arguments: adversarial)
    func anyPartsRenderAsOneBoundedLineWithEveryPartInOrder(_ sample: Sample) {
        let text = sample.text
        // Markers around the adversarial text: a shortened part keeps its start and end.
        let error = Parts(
            operation: "OP<" + text + ">OP", message: "MSG<" + text + ">MSG",
            location: .file(path: "PATH<" + text + ">PATH", line: 12, column: 34),
            suggestion: "SUG<" + text + ">SUG", remedy: "REM<" + text + ">REM")
        let line = error.description
        #expect(Self.isOneLine(line))
        #expect(line.unicodeScalars.count <= ErrorRendering.maximumRenderedLength)
        let markers = ["OP<", ">OP: PATH<", ">PATH:12:34: MSG<", ">MSG (did you mean 'SUG<", ">SUG'?); REM<", ">REM"]
        var rest = line[...]
        for marker in markers {
            guard let found = rest.range(of: marker) else {
                Issue.record("'\(marker)' missing or out of order in \(line.prefix(300))")
                return
            }
            rest = rest[found.upperBound...]
        }
        let column = Parts(message: text, location: .column(Int.min), suggestion: text).description
        #expect(Self.isOneLine(column))
        #expect(column.hasSuffix("'?) at column \(Int.min)"))
        #expect(column.unicodeScalars.count <= ErrorRendering.maximumRenderedLength)
    }

    /// One of each case, built from `name`; the switch in `kind` has no default, so a new
    /// case does not compile until it is added here too.
    static func everyStoreError(_ name: String) -> [StoreError] {
        [
            .unknownEntity(name: name, suggestion: name), .unknownKey(entity: name, key: name, suggestion: name),
            .typeMismatch(entity: name, key: name, expected: name, given: name), .validation(message: name),
            .invalidSchema(entity: name, reason: name), .migrationRefused(entity: name, reason: name),
            .objectDeleted(objectID: name), .readOnly(operation: name), .viewIsReadOnly(entity: name),
            .importFailed(path: name, line: 3, reason: name), .conflict([ConflictedObject(objectID: name, keys: [name], deleted: false)]),
            .database(message: name), .sqlite(code: .SQLITE_CONSTRAINT_UNIQUE, sql: name, message: name), .missingColumn(table: name, column: name),
            .unexpectedValue(table: name, column: name, found: name, expected: name),
            .during(operation: name, .unknownKey(entity: name, key: name, suggestion: name)),
            .cannotWrite(operation: name, path: name, reason: name), .closed,
            .unknownFormat(entity: name, column: name, found: [name, name], example: name),
            .postgres(sqlState: name, sql: name, message: name),
            .constraint(
                ConstraintViolation(
                    .unique, table: name, columns: [name, name], constraint: name,
                    code: .sqlState("23505"), sql: name, said: name)),
            .constraint(
                ConstraintViolation(.foreignKey, table: name, columns: [name], code: .sqlite(.SQLITE_CONSTRAINT_FOREIGNKEY), sql: name, said: name)),
            .interrupted(Interruption(.timeout, stopped: .serverStatement))
        ]
    }

    static func kind(_ error: StoreError) -> Int {
        switch error {
        case .unknownEntity: 0
        case .unknownKey: 1
        case .typeMismatch: 2
        case .validation: 3
        case .invalidSchema: 4
        case .migrationRefused: 5
        case .objectDeleted: 6
        case .readOnly: 7
        case .viewIsReadOnly: 8
        case .importFailed: 9
        case .conflict: 10
        // The database's own failures, whatever the engine or the kind of refusal.
        case .database, .constraint, .interrupted: 11
        case .engine(let failure): failure is PostgresFailure ? 18 : 11
        case .missingColumn: 12
        case .unexpectedValue: 13
        case .during: 14
        case .cannotWrite: 15
        case .closed: 16
        case .unknownFormat: 17
        }
    }

    @Test func theSamplesCoverEveryKind() {
        #expect(Set(Self.everyStoreError("x").map(Self.kind)) == Set(0...18))
    }

    @Test(arguments: adversarial)
    func everyStoreErrorRendersAsOneBoundedLine(_ sample: Sample) {
        for error in Self.everyStoreError(sample.text) {
            let line = error.description
            #expect(Self.isOneLine(line), "\(Self.kind(error))")
            #expect(line.unicodeScalars.count <= ErrorRendering.maximumRenderedLength, "\(Self.kind(error))")
            #expect(line == ErrorRendering.oneLine(error))
        }
    }

    @Test func storeErrorsSayTheirPartsInTheirPlaces() {
        #expect(StoreError.importFailed(path: "a.csv", line: 2, reason: "bad").description == "import: a.csv:2: bad")
        #expect(StoreError.importFailed(path: "a.csv", line: nil, reason: "bad").description == "import: a.csv: bad")
        #expect(StoreError.invalidSchema(entity: "A", reason: "r").description == "entity A: r")
        #expect(StoreError.unknownKey(entity: "Item", key: "titel", suggestion: nil).description == "unknown key 'titel' on entity Item")
        #expect(StoreError.during(operation: "save", .database(message: "disk I/O error")).description == "save: disk I/O error")
        #expect(StoreError.during(operation: "save", .readOnly(operation: "entity A")).description == "save: entity A: the store is read-only")
        #expect(
            StoreError.unexpectedValue(table: "t", column: "c", found: "text", expected: "an integer").description
                == "t.c holds text where an integer is expected; was the file changed by another program?")
        #expect(StoreError.unknownEntity(name: "a\0b", suggestion: nil).description == "unknown entity 'a\\0b'")
    }

    /// Issue 48: a PostgreSQL URL's password is in no rendered line, whichever part holds
    /// the URL (a path that was no file, a script's own message).
    @Test func noRenderedLineHoldsAPostgresPassword() {
        let url = "postgres://ann:SECRET@h/db?password=SECRET2&sslmode=disable"
        let error = Parts(
            operation: url, message: "cannot open \(url): no such file", location: .file(path: url, line: 1, column: nil),
            suggestion: url, remedy: "'\(url)'")
        let line = error.description
        #expect(!line.contains("SECRET") && line.contains("postgres://ann@h/db?sslmode=disable"), "\(line)")
        #expect(ErrorRendering.oneLine("t.lua:1: \(url)") == "t.lua:1: postgres://ann@h/db?sslmode=disable")
        #expect(ErrorRendering.oneLine("plain://words stay") == "plain://words stay")
    }

    @Test func anyMessageIsShortenedKeepingItsStartAndEnd() {
        let long = "start " + String(repeating: "x", count: 1_000_000) + " end"
        let line = ErrorRendering.oneLine(long)
        #expect(line.unicodeScalars.count <= ErrorRendering.maximumLineLength)
        #expect(line.hasPrefix("start xxx") && line.hasSuffix("xxx end"))
        #expect(line.contains(" ... (\(long.unicodeScalars.count - 900) characters left out) ... "))
        #expect(ErrorRendering.oneLine("one\ntwo\0") == "one\\ntwo\\0")
        #expect(ErrorRendering.oneLine(String(repeating: "y", count: 1_000)) == String(repeating: "y", count: 1_000))
    }

    /// A rendered error with Lua's position in front passes the line-level bound unchanged,
    /// so no message is cut twice on its way to the terminal.
    @Test(arguments: adversarial)
    func renderingTwiceChangesNothing(_ sample: Sample) {
        let text = sample.text
        let rendered = Parts(operation: text, message: text, location: .file(path: text, line: 1, column: 1), suggestion: text, remedy: text)
            .description
        let positioned = String(repeating: "s", count: 60) + ":2147483647: " + rendered
        #expect(ErrorRendering.oneLine(positioned) == positioned)
    }
}
