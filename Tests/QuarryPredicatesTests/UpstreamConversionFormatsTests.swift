import Foundation
import GRDB
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Issue #79: every format string swift-foundation's `PredicateConversionTests` expects a
/// `#Predicate` to convert to (`NSPredicate(format:)`, `NSExpression(format:)`), over a
/// model mirroring its `ObjCObject` (its `[Int]` as a to-many of `GValue`s, its URL as a
/// string). Each is read, and then selects in SQL what memory selects, or is refused in
/// one line naming what was written. Which selections are Foundation's own is judged in
/// `FoundationConformanceTests` (the formats beside their Swift) and
/// `StringFoldingTests` (text).
@Suite struct UpstreamConversionFormatsTests {
    static let object = EntityDescription(
        name: "ObjCObject",
        attributes: [
            AttributeDescription(name: "a", type: .int64, isOptional: false), AttributeDescription(name: "b", type: .string, isOptional: false),
            AttributeDescription(name: "c", type: .double, isOptional: false), AttributeDescription(name: "d", type: .int64, isOptional: false),
            AttributeDescription(name: "f", type: .bool, isOptional: false), AttributeDescription(name: "i", type: .date, isOptional: false),
            AttributeDescription(name: "j", type: .string, isOptional: true), AttributeDescription(name: "k", type: .uuid, isOptional: false),
            AttributeDescription(name: "l", type: .binary, isOptional: false), AttributeDescription(name: "m", type: .string, isOptional: false)
        ],
        relationships: [RelationshipDescription(name: "g", destination: "GValue", inverse: "owner", isToMany: true)])
    static let member = EntityDescription(
        name: "GValue", attributes: [AttributeDescription(name: "value", type: .int64, isOptional: false)],
        relationships: [RelationshipDescription(name: "owner", destination: "ObjCObject", inverse: "g", isToMany: false)])

    static let now = Value.date(1_700_000_000)
    static let uuid = "0C2D4F6A-1B3C-4D5E-8F70-112233445566"

    /// (upstream test, format, arguments, nil when read, else what the refusal says).
    static let cases: [(String, String, [PredicateArgument], String?)] = [
        ("basics", "a == 2", [], nil),
        ("basics", "a + 2 == 4", [], nil),
        ("basics", "b.length == 5", [], nil),
        ("basics", "g.@count == 5", [], nil),
        ("basics", "SUBQUERY(g, $_local_1, $_local_1 == d).@count > 0", [], "$_local_1 alone is the member itself"),
        ("basics", "a == 0", [], nil),
        ("basics", "a != 0", [], nil),
        ("ranges", "i BETWEEN {i, i}", [], nil),
        ("ranges", "i >= i AND i < i", [], nil),
        ("ranges", "i >= %@ AND i < %@", [.value(now), .value(now)], nil),
        ("ranges", "i BETWEEN %@", [.list([now, now])], nil),
        ("ranges", "i >= %@", [.value(now)], nil),
        ("ranges", "i <= %@", [.value(now)], nil),
        ("ranges", "i < %@", [.value(now)], nil),
        ("rangeContains", "i >= %@ AND i < %@", [.value(.date(1_600_000_000)), .value(now)], nil),
        ("nonObjC", "a == 1", [], nil),
        ("nonObjC", "f == YES", [], nil),
        ("subscripts", "(SELF.g)[0] == 2", [], "'g' is a to-many relationship, an unordered set in Core Data"),
        ("subscripts", "(SELF.h)['A'] == 1", [], "expected SIZE, FIRST, LAST or a number inside [ ]"),
        ("stringContainsAndStartsWith", "b CONTAINS 'foo'", [], nil),
        ("stringContainsAndStartsWith", "b BEGINSWITH 'foo'", [], nil),
        ("expressionEnforcement", "YES == YES", [], nil),
        ("expressionEnforcement", "NO == YES", [], nil),
        ("expressionEnforcement", "(YES == YES) && (NO == YES)", [], nil),
        ("expressionEnforcement", "f == YES", [], nil),
        ("expressionEnforcement", "TERNARY(f == YES AND YES == YES, YES, NO) == NO", [], nil),
        ("conditional", "TERNARY(f == YES, YES, NO) == YES", [], nil),
        ("optionals", "TERNARY(j != NULL, j, '').length == 0", [], nil),
        ("optionals", "TERNARY(TERNARY(j != nil, j.length, nil) != nil, TERNARY(j != nil, j.length, nil), 1 * -1) > 1", [], nil),
        ("optionals", "j == nil", [], nil),
        ("uuid", "k == %@", [.value(.text(uuid))], nil),
        ("date", "i > %@", [.value(now)], nil),
        ("data", "l == %@", [.value(.blob([1, 2, 3]))], nil),
        ("url", "m == %@", [.value(.text("http://apple.com"))], nil),
        ("containsWhere", "SUBQUERY(g, $_local_1, $_local_1 == 2).@count != 0", [], "$_local_1 alone is the member itself"),
        ("allSatisfy", "SUBQUERY(g, $_local_1, NOT ($_local_1 == 2)).@count == 0", [], "$_local_1 alone is the member itself"),
        ("maxMin", "g.@max.#self == g.@min.#self", [], "'g.@max.#self' takes the members themselves, a scalar array's values"),
        ("stringComparison", "TERNARY(b ==[c] 'ABC', 0, TERNARY(b <[c] 'ABC', -1, 1)) == 0", [], nil),
        ("stringComparison", "TERNARY(b ==[l] 'ABC', 0, TERNARY(b <[l] 'ABC', -1, 1)) == 0", [], nil),
        ("stringComparison", "b CONTAINS[cdl] 'ABC'", [], nil),
        ("nested", "a == 3 AND a > 2", [], nil),
        ("regex", "b MATCHES '.*[e-f][l-m].*'", [], nil)
    ]

    static func store() throws -> (ObjectContext, [ManagedObject]) {
        let context = try StoreOpener.open(nil)
        try context.define(object)
        try context.define(member)
        var objects: [ManagedObject] = []
        let texts = ["Hello", "abc", "ABC", "foo bar", "", "fell", "cafe\u{301}", "👍🏽ok", "𝒳"]
        for n in 0..<14 {
            let values: [String: Value] = [
                "a": .integer(Int64(n % 5) - 1), "b": .text(texts[n % texts.count]), "c": .real(Double(n) * 0.7), "d": .integer(Int64(n % 4)),
                "f": .bool(n % 3 == 0), "i": .date(1_650_000_000 + Double(n) * 10_000_000), "j": n % 3 == 1 ? .null : .text(n % 2 == 0 ? "" : "note"),
                "k": .text(n == 3 ? uuid : "00000000-0000-4000-8000-\(String(format: "%012d", n))"), "l": .blob(n % 2 == 0 ? [1, 2, 3] : [4]),
                "m": .text(n % 4 == 0 ? "http://apple.com" : "http://swift.org")
            ]
            let owner = try context.insert(into: "ObjCObject", values: values)
            objects.append(owner)
            for v in 0..<(n % 4) {
                let m = try context.insert(into: "GValue", values: ["value": .integer(Int64(v + n % 3))])
                try context.setRelatedObject(owner, "owner", of: m)
            }
        }
        try context.save()
        return (context, objects)
    }

    @Test func eachIsReadAndAgreesInSQLAndMemoryOrRefusedNamingIt() throws {
        let (context, objects) = try Self.store()
        let entity = try context.entity(named: "ObjCObject")
        var read = 0
        for (test, format, arguments, refusal) in Self.cases {
            do {
                let bound = try BoundPredicate(
                    try PredicateParser.parse(format, arguments: PredicateArguments(arguments: arguments, variables: [:])), entity: entity,
                    context: context)
                let fragment = bound.sql(dialect: SQLiteDialect())
                let bySQL = try selectedKeys(of: "ObjCObject", where: fragment, in: context)
                let inMemory = Set(objects.filter { bound.matches($0) }.compactMap(\.primaryKey))
                #expect(bySQL == inMemory, "\(test): \(format): SQL \(bySQL.sorted()), memory \(inMemory.sorted())")
                #expect(refusal == nil, "\(test): \(format) was read, expected refused: \(refusal ?? "")")
                read += 1
            } catch let error as QuarryPredicates.PredicateError {
                #expect(refusal.map { error.message.contains($0) } == true, "\(test): \(format): \(error.message)")
                #expect(!error.message.contains("\n") && error.column != nil, "\(test): \(format): \(error.message)")
            }
        }
        // NSExpression(format: "a") (`expression`): one expression.
        #expect(try BoundExpression(PredicateParser.parseExpression("a"), entity: entity, context: context).type == .int64)
        print("UpstreamConversionFormatsTests: \(read + 1) of \(Self.cases.count + 1) read")
        #expect(read == Self.cases.filter { $0.3 == nil }.count)
    }

    /// `SELF.SELF` is no second `SELF`: refused naming it (it read as `SELF`).
    @Test func selfTwiceIsRefusedNamingIt() throws {
        do {
            let read = try PredicateParser.parse("SELF.SELF == 1")
            Issue.record("SELF.SELF == 1 was read as \(read)")
        } catch let error as QuarryPredicates.PredicateError {
            #expect(error.message.contains("'SELF.SELF'") && error.column == 6, "\(error.message) at \(error.column ?? 0)")
        }
        #expect(try PredicateParser.parse("SELF == 1").description == "SELF == 1")
    }

    /// `SELF == SELF` is the object compared with itself, true of every object (`!=`, of
    /// none), as a #Predicate's `$0 == $0` is read, in SQL and memory alike; it was refused
    /// as if SELF were a relationship. Inside a test of more (`AND`), it stays true.
    @Test func selfComparedWithItselfIsTrueOfEveryObject() throws {
        let (context, objects) = try Self.store()
        let entity = try context.entity(named: "ObjCObject")
        for (format, expected) in [("SELF == SELF", objects.count), ("SELF != SELF", 0), ("SELF == SELF AND a == 0", 3)] {
            let bound = try BoundPredicate(try PredicateParser.parse(format), entity: entity, context: context)
            let bySQL = try selectedKeys(of: "ObjCObject", where: bound.sql(dialect: SQLiteDialect()), in: context)
            let inMemory = Set(objects.filter { bound.matches($0) }.compactMap(\.primaryKey))
            #expect(bySQL == inMemory && bySQL.count == expected, "\(format): SQL \(bySQL.count), memory \(inMemory.count)")
        }
    }
}
