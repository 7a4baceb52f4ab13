import Foundation
import GRDB
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarrySwiftEvaluation
import QuarrySwiftInput
import QuarrySwiftReading
import QuarryTestSupport
import Testing

/// Issue #79: `#Predicate`s written as swift-foundation's own tests write them
/// (`Tests/FoundationEssentialsTests/PredicateTests.swift`, `PredicateConversionTests.swift`),
/// as cases of this suite's own over a model that mirrors their `Object` (a to-many of
/// `Member`s where they use an array). Each one Quarry reads selects, from its fetch, the
/// objects swift-foundation's `Predicate.evaluate` selects from the same rows: the Swift
/// text as written is compiled against swift-foundation's macro in the set-up
/// (`SwiftEvaluation`), so no expected row is written by hand. What Quarry does not read
/// is listed with the one line it refuses it in, naming what was written.
@Suite struct FoundationConformanceTests {
    static let object = EntityDescription(
        name: "Object",
        attributes: [
            AttributeDescription(name: "a", type: .int64, isOptional: false), AttributeDescription(name: "b", type: .string, isOptional: false),
            AttributeDescription(name: "c", type: .double, isOptional: false), AttributeDescription(name: "d", type: .int64, isOptional: false),
            AttributeDescription(name: "f", type: .bool, isOptional: false), AttributeDescription(name: "h", type: .date, isOptional: false),
            AttributeDescription(name: "j", type: .string, isOptional: true), AttributeDescription(name: "k", type: .int64, isOptional: true)
        ],
        relationships: [RelationshipDescription(name: "members", destination: "Member", inverse: "owner", isToMany: true)])
    static let member = EntityDescription(
        name: "Member",
        attributes: [
            AttributeDescription(name: "value", type: .int64, isOptional: false),
            AttributeDescription(name: "name", type: .string, isOptional: false)
        ],
        relationships: [RelationshipDescription(name: "owner", destination: "Object", inverse: "members", isToMany: false)])

    /// (upstream test, Swift as a person writes it: `let`s, then `let query = #Predicate<Object> { ... }`).
    /// `caseInsensitiveCompare` is read (`SwiftPredicateReaderTests`) but not judged here:
    /// swift-foundation on Linux has no `build_caseInsensitiveCompare`.
    static let read: [(String, String)] = [
        ("PredicateTests.basic", "let compareTo: Int64 = 2\nlet query = #Predicate<Object> { $0.a == compareTo }"),
        ("PredicateTests.arithmetic", "let query = #Predicate<Object> { $0.a + 2 == 4 }"),
        ("PredicateTests.division (Double)", "let query = #Predicate<Object> { $0.c / 2.1 <= 3.0 }"),
        // Between integers Swift's `/` drops the fraction, toward zero; a Double by an integer literal divides as Doubles.
        ("PredicateTests.division (Int)", "let query = #Predicate<Object> { $0.a / 2 == 1 }"),
        ("PredicateTests.division (Int, toward zero)", "let query = #Predicate<Object> { $0.a / 3 == 0 && $0.d != 0 }"),
        ("PredicateTests.division (Int, negative)", "let query = #Predicate<Object> { ($0.a - 3) / -2 >= 2 }"),
        ("PredicateTests.division (Double by Int)", "let query = #Predicate<Object> { $0.c / 2 > 1.0 }"),
        ("PredicateTests.buildDivision (remainder)", "let query = #Predicate<Object> { $0.a % 2 == 1 }"),
        ("PredicateConversionTests.arithmetic (remainder)", "let query = #Predicate<Object> { $0.d % 3 != 0 && $0.a > -2 }"),
        ("PredicateTests.conditional", "let query = #Predicate<Object> { $0.f ? $0.a > 0 : $0.d > 1 }"),
        ("PredicateConversionTests.conditional (value)", "let query = #Predicate<Object> { ($0.f ? $0.a : $0.d) > 1 }"),
        ("PredicateTests.closedRange (constants)", "let query = #Predicate<Object> { (0...3).contains($0.a) }"),
        ("PredicateTests.closedRange (keys)", "let query = #Predicate<Object> { ($0.a ... $0.d).contains(2) }"),
        ("PredicateTests.range (constants)", "let query = #Predicate<Object> { (0 ..< 3).contains($0.a) }"),
        ("PredicateTests.range (keys)", "let toMatch: Int64 = 1\nlet query = #Predicate<Object> { ($0.a ..< $0.d).contains(toMatch) }"),
        ("PredicateTests.rangeContains (captured)", "let range: Range<Int64> = -1 ..< 2\nlet query = #Predicate<Object> { range.contains($0.a) }"),
        (
            "PredicateTests.rangeContains (captured closed)",
            "let range: ClosedRange<Int64> = 1 ... 3\nlet query = #Predicate<Object> { range.contains($0.d) }"
        ),
        (
            "PredicateTests.rangeContains (partial from)",
            "let range: PartialRangeFrom<Int64> = 2...\nlet query = #Predicate<Object> { range.contains($0.a) }"
        ),
        (
            "PredicateTests.rangeContains (partial through)",
            "let range: PartialRangeThrough<Int64> = ...0\nlet query = #Predicate<Object> { range.contains($0.a) }"
        ),
        (
            "PredicateTests.rangeContains (partial up to)",
            "let range: PartialRangeUpTo<Double> = ..<0.5\nlet query = #Predicate<Object> { range.contains($0.c) }"
        ),
        ("PredicateTests.collectionCount", "let query = #Predicate<Object> { $0.members.count == 2 }"),
        ("PredicateTests.isEmpty (string)", "let query = #Predicate<Object> { $0.b.isEmpty }"),
        ("PredicateTests.isEmpty (not)", "let query = #Predicate<Object> { !$0.b.isEmpty && $0.a > 0 }"),
        ("PredicateTests.isEmpty (to-many)", "let query = #Predicate<Object> { $0.members.isEmpty }"),
        ("PredicateTests.optionals (isEmpty ?? true)", "let query = #Predicate<Object> { $0.j?.isEmpty ?? true }"),
        ("PredicateTests.optionals (isEmpty ?? false)", "let query = #Predicate<Object> { $0.j?.isEmpty ?? false }"),
        ("PredicateTests.nilCoalesce", #"let query = #Predicate<Object> { ($0.j ?? "") == "" }"#),
        ("PredicateConversionTests.nilCoalesce", #"let query = #Predicate<Object> { ($0.j ?? "none") != "note" && $0.a > -1 }"#),
        ("PredicateTests.nilCoalesce (right)", #"let query = #Predicate<Object> { "note" == ($0.j ?? "x") }"#),
        ("PredicateTests.filter (isEmpty)", "let query = #Predicate<Object> { !$0.members.filter { $0.value == 2 }.isEmpty }"),
        (
            "PredicateTests.filter (outer key, isEmpty)",
            "let query = #Predicate<Object> { object in !object.members.filter { $0.value == object.d }.isEmpty }"
        ),
        (
            "PredicateTests.filter (outer key, count)",
            "let query = #Predicate<Object> { object in object.members.filter { $0.value > object.a }.count > 0 }"
        ),
        (
            "PredicateTests.filter (outer key, none)",
            "let query = #Predicate<Object> { object in object.members.filter { $0.value < object.a }.count == 0 }"
        ),
        ("PredicateTests.sequenceContainsWhere", "let query = #Predicate<Object> { $0.members.contains { $0.value > 3 } }"),
        ("PredicateTests.sequenceAllSatisfy", "let query = #Predicate<Object> { $0.members.allSatisfy { $0.value > 1 } }"),
        // The macro takes Date.distantFuture only captured (a static member is no key path of the object).
        ("PredicateTests.dates (distantFuture)", "let future = Date.distantFuture\nlet query = #Predicate<Object> { $0.h < future && $0.f }"),
        // An empty range of Date.distantPast holds no date, whatever a store keeps.
        (
            "PredicateTests.rangeContains (distantPast)",
            "let date = Date.distantPast\nlet query = #Predicate<Object> { (date ..< date).contains($0.h) || $0.a > 0 }"
        ),
        // A Double by an integer literal divides as Doubles, by -1 too.
        ("PredicateTests.division (Double by -1)", "let query = #Predicate<Object> { $0.c / -1 < 0.5 }"),
        ("PredicateTests.stringContains", #"let query = #Predicate<Object> { $0.b.contains("l") }"#),
        // Swift's contains("") holds for every string (CONTAINS "" for none): read as the string being there.
        ("PredicateTests.stringContains (empty)", #"let query = #Predicate<Object> { $0.b.contains("") && $0.a > 0 }"#),
        ("PredicateTests.stringContains (empty, optional)", #"let query = #Predicate<Object> { $0.j?.contains("") ?? false }"#),
        ("PredicateTests.optional (?? in arithmetic)", "let query = #Predicate<Object> { ($0.k ?? 7) % 2 == 1 }"),
        ("PredicateConversionTests.optionals (?? then isEmpty)", #"let query = #Predicate<Object> { ($0.j ?? "").isEmpty }"#),
        ("PredicateConversionTests.conditional (in arithmetic)", "let query = #Predicate<Object> { ($0.f ? $0.a : $0.d) * 2 > 1 }"),
        ("PredicateConversionTests.conditional (Bool)", "let query = #Predicate<Object> { $0.f ? true : false }"),
        ("PredicateConversionTests.expressionEnforcement", "let query = #Predicate<Object> { ($0.f && true) == false }"),
        ("PredicateTests.startsWith", #"let query = #Predicate<Object> { $0.b.starts(with: "ca") }"#),
        // Trial 25, as SnippetBox's `$0.folder?.name.contains("new folder") == true`: an
        // optional test compared with a Bool literal, nil being neither.
        ("optional test == true", #"let query = #Predicate<Object> { $0.j?.contains("l") == true }"#),
        ("optional test == false", #"let query = #Predicate<Object> { $0.j?.starts(with: "a") == false }"#),
        ("optional test != true", #"let query = #Predicate<Object> { $0.j?.contains("l") != true }"#),
        ("optional test != false", "let query = #Predicate<Object> { $0.j?.isEmpty != false }"),
        // The search field's predicate: a captured String's isEmpty.
        (
            "captured String isEmpty",
            #"let searchText = "l"\#nlet query = #Predicate<Object> { searchText.isEmpty || $0.b.contains(searchText) }"#
        ),
        // Captured values: a random UUID, dates by name in a captured range.
        ("PredicateCodableTests.disallowedType", "let uuid = UUID()\nlet query = #Predicate<Object> { obj in uuid == uuid && obj.a > 0 }"),
        (
            "PredicateConversionTests.rangesDistinctBounds",
            "let lowerDate = Date(timeIntervalSince1970: 0)\nlet upperDate = Date(timeIntervalSince1970: 345_600_000)\nlet range = lowerDate ..< upperDate\nlet query = #Predicate<Object> { range.contains($0.h) }"
        ),
        // A string's count, in characters as Swift counts them ("👍🏽ok" is 3).
        ("PredicateConversionTests.basics (count)", "let query = #Predicate<Object> { $0.b.count == 3 }"),
        ("PredicateTests.optional (count ?? value)", "let query = #Predicate<Object> { ($0.j?.count ?? -1) > 1 }"),
        ("PredicateTests.optional (count ?? 0)", "let query = #Predicate<Object> { ($0.j?.count ?? 0) == 0 }"),
        ("PredicateConversionTests.optionals (count ?? value)", "let query = #Predicate<Object> { ($0.j?.count ?? -1) < 1 && $0.b.count > 4 }")
    ]

    /// Captured structs, which the compiled program declares (`declarations`) and Quarry
    /// reads from their memberwise initializers: (upstream test, Swift).
    static let structs: [(String, String)] = [
        (
            "PredicateConversionTests.nonObjCConstantKeyPath",
            "let nonObjC = NonObjCStruct(a: 1, b: [1, 2, 3])\nlet query = #Predicate<Object> { $0.a == nonObjC.a }"
        ),
        (
            "PredicateConversionTests.nonObjCConstantKeyPath (contains)",
            "let nonObjC = NonObjCStruct(a: 1, b: [1, 2, 3])\nlet query = #Predicate<Object> { $0.f == nonObjC.b.contains([1, 2]) }"
        )
    ]
    /// A #Predicate evaluating another defined before it, read in its place: (upstream
    /// test, Swift, the same test inlined). Linux's macro refuses `evaluate(_:)` ("not
    /// supported in this predicate"), so Foundation judges the inlined test, which is what
    /// evaluating the other means.
    static let nested: [(String, String, String)] = [
        (
            "PredicateTests.nested",
            "let predicateA = #Predicate<Object> { $0.a == 3 }\nlet query = #Predicate<Object> { predicateA.evaluate($0) && $0.f }",
            "let query = #Predicate<Object> { ($0.a == 3) && $0.f }"
        ),
        (
            "PredicateCodableTests.nestedPredicates",
            "let predicateA = #Predicate<Object> { $0.a > 0 }\nlet query = #Predicate<Object> { !predicateA.evaluate($0) || $0.d > 3 }",
            "let query = #Predicate<Object> { !($0.a > 0) || $0.d > 3 }"
        )
    ]

    static let declarations = ["struct NonObjCStruct: Codable, Sendable { let a: Int64; let b: [Int64] }"]

    /// Apple's grammar's `length` counts UTF-16 units: (format, Swift that counts them).
    static let lengths: [(String, String)] = [
        ("b.length == 6", "let query = #Predicate<Object> { $0.b.utf16.count == 6 }"),
        ("b.length > 4 AND a > -1", "let query = #Predicate<Object> { $0.b.utf16.count > 4 && $0.a > -1 }"),
        ("TERNARY(j != nil, j.length, -1) >= 0", "let query = #Predicate<Object> { ($0.j?.utf16.count ?? -1) >= 0 }")
    ]

    /// (upstream test, Swift, what the one-line refusal says).
    static let refused: [(String, String, String)] = [
        ("PredicateTests.variadic", "let query = #Predicate<Object, Int> { $0.a == $1 + 1 }", "#Predicate<Object, Int> takes 2 inputs"),
        ("PredicateTests.division (by a key)", "let query = #Predicate<Object> { $0.a / $0.d == 3 }", "'/' is read dividing by a nonzero constant"),
        (
            "PredicateTests.division (by -1)", "let query = #Predicate<Object> { $0.a / -1 == 3 }",
            "'/' between integers is read dividing by a nonzero integer constant other than -1"
        ),
        ("PredicateTests.division (Double by 0)", "let query = #Predicate<Object> { $0.c / 0 > 1 }", "'/' by 0: Swift gives an infinity"),
        (
            "PredicateTests.sequenceContains (scalar array)", "let query = #Predicate<Object> { $0.members.contains { $0 == 2 } }",
            "'$0' alone is the member itself"
        ),
        ("PredicateTests.maxMin (scalar array)", "let query = #Predicate<Object> { $0.members.max() == 2 }", "max(...) has no #Predicate form"),
        (
            "PredicateInternationalizationTests.localizedCompare",
            #"let query = #Predicate<Object> { $0.b.localizedCompare("abc") == .orderedAscending }"#,
            "localizedCompare(_:) orders by the user's locale"
        ),
        (
            "PredicateTests.caseInsensitiveCompare (order)",
            #"let query = #Predicate<Object> { $0.b.caseInsensitiveCompare("abc") == .orderedAscending }"#, "against .orderedAscending"
        ),
        (
            "PredicateTests.stringContains (not composed)", #"let query = #Predicate<Object> { $0.b == "cafe\u{301}" }"#,
            "a string not in Unicode's composed form (NFC): Swift compares strings by canonical equivalence, SQL by code points"
        ),
        (
            "PredicateCodableTests.nestedPredicateRestrictedConfiguration",
            "let predicateA = #Predicate<Object> { $0.a == 3 }\nlet box = RestrictedBox(predicateA)\nlet query = #Predicate<Object> { box.predicate.evaluate($0) }",
            "RestrictedBox(...) is no captured value Quarry reads"
        ),
        (
            "PredicateConversionTests.uuid", "let uuid = obj.k\nlet query = #Predicate<Object> { $0.b == uuid }",
            "'obj.k' is a value of the app's ('obj')"
        ),
        ("PredicateCodableTests.defaultAllowlist", "let query = #Predicate<Object> { $0 == 2 }", "'$0' alone is the object itself"),
        (
            "PredicateTests.dates (distantPast)", "let query = #Predicate<Object> { $0.h > Date.distantPast && $0.a < 1 }",
            "Date.distantPast (0000-12-30) is read only as an empty range's bounds"
        ),
        (
            "PredicateTests.rangeContains (distantPast, not empty)",
            "let past = Date.distantPast\nlet query = #Predicate<Object> { (past ..< Date.distantFuture).contains($0.h) }",
            "Date.distantPast (0000-12-30) is read only as an empty range's bounds"
        ),
        (
            "PredicateConversionTests.stringComparison",
            #"let equal = ComparisonResult.orderedSame\#nlet query = #Predicate<Object> { $0.b.localizedCompare("ABC") == equal }"#,
            "localizedCompare(_:) == .orderedSame is the user's locale's collation, which no store repeats"
        ),
        ("PredicateTests.regex", #"let query = #Predicate<Object> { $0.b.firstRange(of: "a") != nil }"#, "no regular expression")
    ]

    /// How many cases Foundation judges (docs/swift.md states it).
    static var judgedCount: Int { read.count + structs.count + nested.count + lengths.count }

    static let objectCount = 28

    static func store() throws -> ObjectContext { try storeAndObjects().0 }

    /// The store, and its objects, which it holds weakly.
    static func storeAndObjects() throws -> (ObjectContext, [ManagedObject]) {
        var objects: [ManagedObject] = []
        let context = try StoreOpener.open(nil)
        try context.define(object)
        try context.define(member)
        // "👍🏽ok": 3 characters, 4 code points, 6 UTF-16 units.
        let texts = ["", "abc", "Hello", "café", "CAFÉ", "hello world", "ABC", "👍🏽ok"]
        let notes: [Value] = [.null, .text(""), .text("note")]
        for i in 0..<objectCount {
            let a = Int64(i % 7) - 2
            // d >= a: Swift's ranges over (a, d) stop the program where a > d.
            let d = a + Int64(i % 3)
            let values: [String: Value] = [
                "a": .integer(a), "b": .text(texts[i % texts.count]), "c": .real(Double(i) * 0.75 - 3), "d": .integer(d),
                "f": .bool(i % 2 == 0), "h": .date(Double(i) * 86_400 * 400 - 86_400 * 4000), "j": notes[i % 3],
                "k": i % 4 == 1 ? .null : .integer(Int64(i % 5))
            ]
            let owner = try context.insert(into: "Object", values: values)
            objects.append(owner)
            for k in 0..<(i % 4) {
                let m = try context.insert(into: "Member", values: ["value": .integer(Int64((i + k) % 5)), "name": .text("m\(k)")])
                try context.setRelatedObject(owner, "owner", of: m)
            }
        }
        try context.save()
        return (context, objects)
    }

    @Test func readCasesSelectWhatFoundationSelects() throws {
        let context = try Self.store()
        var cases = try Self.read.map { label, swift in
            let read = try SwiftPredicateReader.read(swift, captures: [:])
            return SwiftEvaluation.Case(label, read.predicate, swift: swift.split(separator: "\n").map(String.init))
        }
        cases += try Self.structs.map { label, swift in
            let read = try SwiftPredicateReader.read(swift, captures: [:])
            return SwiftEvaluation.Case(label, read.predicate, swift: Self.declarations + swift.split(separator: "\n").map(String.init))
        }
        cases += try Self.nested.map { label, swift, inlined in
            let read = try SwiftPredicateReader.read(swift, captures: [:])
            return SwiftEvaluation.Case(label, read.predicate, swift: inlined.split(separator: "\n").map(String.init))
        }
        cases += try Self.lengths.map { format, swift in
            SwiftEvaluation.Case(format, try PredicateParser.parse(format), swift: swift.split(separator: "\n").map(String.init))
        }
        let total = Self.judgedCount
        let report = try SwiftEvaluation.run(cases, entity: "Object", in: context, sample: Self.objectCount)
        print("FoundationConformanceTests: \(report)")
        #expect(report.mismatches.isEmpty, "\(report.mismatches.joined(separator: "\n"))")
        #expect(report.agreed == total)
        // Most cases select some objects but not all: a case that selects all or none proves little.
        #expect(report.discriminating * 10 >= total * 9, "\(report.discriminating) of \(total) discriminate")
    }

    /// What `p:swift()` writes for CONTAINS against a key, which may hold "" (found by none
    /// of Swift's `contains`, where CONTAINS finds none): `(!b.isEmpty && b.contains(b))`,
    /// compiled against swift-foundation's macro, selects what Quarry's fetch selects.
    @Test func exportedContainsOfAKeySelectsWhatFoundationSelects() throws {
        let context = try Self.store()
        let formats = ["b CONTAINS b", "NOT (b CONTAINS b) AND a < 0", "b CONTAINS 'l' OR b CONTAINS b AND f == YES"]
        let cases = try formats.map { SwiftEvaluation.Case($0, try PredicateParser.parse($0)) }
        let report = try SwiftEvaluation.run(cases, entity: "Object", in: context, sample: Self.objectCount)
        #expect(report.mismatches.isEmpty && report.refusals.isEmpty, "\(report.mismatches) \(report.refusals)")
        #expect(report.agreed == formats.count && report.discriminating == formats.count, "\(report)")
        // CONTAINS "" itself has no Swift form: Swift's contains("") holds for every string.
        let empty = try BoundPredicate(PredicateParser.parse("b CONTAINS ''"), entity: context.entity(named: "Object"), context: context)
        #expect(empty.swiftCode().contains("Swift's contains(\"\") holds for every string"), "\(empty.swiftCode())")
    }

    /// What `p:swift()` writes for a string's count in characters: the `#Predicate`'s
    /// `.count`, compiled against swift-foundation's macro, selects what Quarry's fetch
    /// selects; and no `NSPredicate` line, as Apple's grammar counts UTF-16 units.
    @Test func exportedCharacterCountSelectsWhatFoundationSelects() throws {
        let context = try Self.store()
        let swift = ["#Predicate<Object> { $0.b.count == 3 }", "#Predicate<Object> { $0.b.count > 4 || $0.a > 3 }"]
        let cases = try swift.map { SwiftEvaluation.Case($0, try SwiftPredicateReader.read($0, captures: [:]).predicate) }
        let report = try SwiftEvaluation.run(cases, entity: "Object", in: context, sample: Self.objectCount)
        #expect(report.mismatches.isEmpty && report.refusals.isEmpty, "\(report.mismatches) \(report.refusals)")
        #expect(report.agreed == swift.count && report.discriminating == swift.count, "\(report)")
        let bound = try BoundPredicate(cases[0].predicate, entity: context.entity(named: "Object"), context: context)
        #expect(
            bound.swiftCode().hasPrefix("// NSPredicate: not expressible (Apple's grammar counts a string in UTF-16 units"), "\(bound.swiftCode())")
    }

    /// Format strings (`PredicateConversionTests`' forms) beside the Swift they convert from,
    /// which the test above judges against Foundation: each selects the same objects, in
    /// SQL (the fetch) and in memory (`matches`) alike.
    static let formats: [(String, String)] = [
        ("2 BETWEEN {a, d}", "let query = #Predicate<Object> { ($0.a ... $0.d).contains(2) }"),
        ("modulus:by:(a, 2) == 1", "let query = #Predicate<Object> { $0.a % 2 == 1 }"),
        ("b.length == 0", "let query = #Predicate<Object> { $0.b.isEmpty }"),
        ("b.length > 0 AND a > 0", "let query = #Predicate<Object> { !$0.b.isEmpty && $0.a > 0 }"),
        ("j == nil OR j.length == 0", "let query = #Predicate<Object> { $0.j?.isEmpty ?? true }"),
        ("TERNARY(f == YES, YES, NO) == YES", "let query = #Predicate<Object> { $0.f ? true : false }"),
        ("TERNARY(f == YES AND YES == YES, YES, NO) == NO", "let query = #Predicate<Object> { ($0.f && true) == false }"),
        ("TERNARY(j != NULL, j, '').length == 0", #"let query = #Predicate<Object> { ($0.j ?? "").isEmpty }"#),
        ("modulus:by:(TERNARY(k != nil, k, 7), 2) == 1", "let query = #Predicate<Object> { ($0.k ?? 7) % 2 == 1 }"),
        ("TERNARY(f == YES, a, d) * 2 > 1", "let query = #Predicate<Object> { ($0.f ? $0.a : $0.d) * 2 > 1 }"),
        (
            "TERNARY(b ==[c] 'ABC', 0, TERNARY(b <[c] 'ABC', -1, 1)) == 0",
            #"let query = #Predicate<Object> { $0.b.caseInsensitiveCompare("ABC") == .orderedSame }"#
        ),
        ("b CONTAINS[cdl] 'ABC'", #"let query = #Predicate<Object> { $0.b.localizedStandardContains("ABC") }"#)
    ]

    @Test(arguments: formats) func formatsSelectInSQLAndMemoryWhatTheirSwiftSelects(_ c: (String, String)) throws {
        let (context, all) = try Self.storeAndObjects()
        let entity = try context.entity(named: "Object")
        let format = try BoundPredicate(PredicateParser.parse(c.0, arguments: PredicateArguments([])), entity: entity, context: context)
        let swift = try BoundPredicate(SwiftPredicateReader.read(c.1, captures: [:]).predicate, entity: entity, context: context)
        func keys(_ bound: BoundPredicate) throws -> Set<Int64> {
            let fragment = bound.sql(dialect: SQLiteDialect())
            return Set(
                try context.connection.read { db in
                    try Int64.fetchAll(
                        db, sql: "SELECT _pk FROM Object WHERE \(fragment.sql)",
                        arguments: StatementArguments(fragment.arguments.map(\.databaseValue)))
                })
        }
        let bySQL = try keys(format)
        let inMemory = Set(all.filter { format.matches($0) }.compactMap(\.primaryKey))
        #expect(all.count == Self.objectCount)
        #expect(bySQL == inMemory, "\(c.0): SQL \(bySQL.sorted()), memory \(inMemory.sorted())")
        #expect(bySQL == (try keys(swift)), "\(c.0) and its Swift")
        #expect(!bySQL.isEmpty && bySQL.count < all.count, "\(c.0) selects \(bySQL.count) of \(all.count)")
    }

    /// A string's count in SQL and in memory alike: `length` in UTF-16 units, Swift's
    /// `count` in characters, each selecting what Foundation selects above.
    @Test func stringCountsSelectInSQLWhatMemorySelects() throws {
        let (context, all) = try Self.storeAndObjects()
        let entity = try context.entity(named: "Object")
        let predicates = [
            try PredicateParser.parse("b.length == 6"), try PredicateParser.parse("b.length < 5 AND b.length > 2"),
            try SwiftPredicateReader.read("#Predicate<Object> { $0.b.count == 3 }", captures: [:]).predicate,
            try SwiftPredicateReader.read("#Predicate<Object> { ($0.j?.count ?? 0) == 4 }", captures: [:]).predicate
        ]
        for predicate in predicates {
            let bound = try BoundPredicate(predicate, entity: entity, context: context)
            let bySQL = try selectedKeys(of: "Object", where: bound.sql(dialect: SQLiteDialect()), in: context)
            let inMemory = Set(all.filter { bound.matches($0) }.compactMap(\.primaryKey))
            #expect(
                bySQL == inMemory && !bySQL.isEmpty && bySQL.count < all.count, "\(predicate): SQL \(bySQL.sorted()), memory \(inMemory.sorted())")
        }
    }

    /// Refused when read, or when bound to the entity (a string's count is known to be one
    /// only then).
    @Test(arguments: refused) func refusedInOneLineNamingWhatWasWritten(_ c: (String, String, String)) throws {
        let context = try Self.store()
        do {
            let read = try SwiftPredicateReader.read(c.1, captures: [:])
            _ = try BoundPredicate(read.predicate, entity: try context.entity(named: "Object"), context: context)
            Issue.record("\(c.0): read as \(read.predicate)")
        } catch let error as QuarryPredicates.PredicateError {
            #expect(error.message.contains(c.2), "\(c.0): \(error.message)")
            #expect(!error.message.contains("\n") && error.column != nil, "\(c.0): \(error.message)")
        } catch {
            Issue.record("\(c.0): \(error)")
        }
    }
}
