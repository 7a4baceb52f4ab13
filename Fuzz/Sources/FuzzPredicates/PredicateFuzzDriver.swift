// One input of the predicate fuzz target, shared by the libFuzzer target (Fuzz/) and the
// corpus replay test (Tests/QuarryPredicatesTests, through a symbolic link).
import GRDB
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarryModel
import QuarrySQLite

/// Parses the input as a format string; when it parses, formats it and parses that back,
/// binds it to `Item` (with relationships to `Person` and `Tag`), and checks that SQL and
/// the in-memory evaluator select the same rows of a small saved store. Returns a
/// description of what went wrong, or nil; errors from parsing or binding are fine.
enum PredicateFuzzDriver {
    final class Fixture {
        let context: ObjectContext
        let item: EntityDescription
        let items: [ManagedObject]
        let arguments: PredicateArguments

        init() throws {
            let context = try StoreOpener.open(nil)
            self.context = context
            try context.define(EntityDescription(name: "Item", attributes: [
                AttributeDescription(name: "i", type: .int64, isOptional: true),
                AttributeDescription(name: "d", type: .double, isOptional: true),
                AttributeDescription(name: "s", type: .string, isOptional: true),
                AttributeDescription(name: "u", type: .string, isOptional: true),
                AttributeDescription(name: "b", type: .bool, isOptional: true),
                AttributeDescription(name: "t", type: .date, isOptional: true),
                AttributeDescription(name: "n", type: .int16, isOptional: true),
            ], relationships: [
                RelationshipDescription(name: "owner", destination: "Person", inverse: "items", isToMany: false),
                RelationshipDescription(name: "tags", destination: "Tag", inverse: "items", isToMany: true),
            ]))
            try context.define(EntityDescription(name: "Person", attributes: [
                AttributeDescription(name: "name", type: .string, isOptional: true),
                AttributeDescription(name: "age", type: .int64, isOptional: true),
            ], relationships: [
                RelationshipDescription(name: "boss", destination: "Person", inverse: "staff", isToMany: false),
            ]))
            try context.define(EntityDescription(name: "Tag", attributes: [
                AttributeDescription(name: "name", type: .string, isOptional: true),
            ]))
            let item = try context.entity(named: "Item")
            self.item = item

            let people = try [("Ann", 41), ("bob", nil), ("Émile", -3), ("", 0)].map { name, age in
                try context.insert(into: "Person", values: ["name": .text(name), "age": age.map { .integer(Int64($0)) } ?? .null])
            }
            try context.setRelatedObject(people[0], "boss", of: people[1])
            try context.setRelatedObject(people[1], "boss", of: people[2])
            let tags = try ["red", "Blue", "grün", "a.b*c"].map { try context.insert(into: "Tag", values: ["name": .text($0)]) }
            let rows: [[String: Value]] = [
                ["i": .integer(1), "d": .real(1.5), "s": .text("abc"), "u": .text("ABC"), "b": .bool(true), "t": .date(0), "n": .integer(1)],
                ["i": .integer(-7), "d": .real(-0.0), "s": .text("café"), "u": .text("cafe"), "b": .bool(false), "t": .date(1705940772.25)],
                ["i": .integer(.max), "d": .real(9.3e18), "s": .text("Straße"), "u": .text("STRASSE"), "t": .date(-14182940)],
                ["i": .integer(.max - 1), "d": .real(1e300), "s": .text(""), "b": .bool(true), "n": .integer(-32768)],
                ["i": .integer(.min), "d": .real(-2.5), "s": .text("a%b_c"), "u": .text("a*b?c"), "n": .integer(32767)],
                ["i": .integer(9_007_199_254_740_993), "d": .real(9_007_199_254_740_992), "s": .text("日本"), "u": .text("x\ny")],
                ["i": .integer(0), "s": .text("it's \"q\""), "u": .text(#"back\slash"#), "b": .bool(false), "t": .date(951782400)],
                [:],
                ["i": .integer(3), "d": .real(3), "s": .text("3"), "u": .text("3.0"), "t": .date(2_000_000_000.5)],
                ["i": .integer(2), "d": .real(0.1), "s": .text("ǅ ﬁ İı"), "u": .text("🙂"), "b": .bool(true)],
            ]
            var items: [ManagedObject] = []
            for (k, row) in rows.enumerated() {
                let o = try context.insert(into: "Item", values: row)
                if k % 5 != 4 { try context.setRelatedObject(people[k % people.count], "owner", of: o) }
                for (j, tag) in tags.enumerated() where (k + j) % 3 == 0 { try context.addRelated(tag, to: "tags", of: o) }
                items.append(o)
            }
            try context.save()
            self.items = items
            let values: [Value] = [.text("s"), .integer(3), .text("a"), .real(2.5), .null, .bool(true),
                                   .date(1705940772.25), .text("i"), .integer(.max), .text("owner.name"), .real(-0.0), .text("")]
            var positional = values.map(PredicateArgument.value)
            positional.insert(.object(ObjectReference(people[0])), at: 5)
            positional.insert(.list([.integer(1), .text("abc"), .null, .real(1.5)]), at: 7)
            positional.insert(.objects([ObjectReference(items[0]), ObjectReference(items[3])]), at: 9)
            arguments = PredicateArguments(arguments: positional + positional, variables: [
                "X": .value(.integer(2)), "S": .value(.text("ab")), "D": .value(.date(0)),
                "O": .object(ObjectReference(people[1])), "L": .list([.text("red"), .text("grün")]), "N": .value(.null),
            ])
        }
    }

    static let fixture: Fixture = {
        do { return try Fixture() } catch { fatalError("the predicate fuzz fixture failed: \(error)") }
    }()

    static func run(_ bytes: [UInt8]) -> String? {
        let fixture = self.fixture
        let format = String(decoding: bytes, as: UTF8.self)
        guard let parsed = try? PredicateParser.parse(format, arguments: fixture.arguments) else { return nil }
        let text = parsed.description
        _ = parsed.appleFormat

        // The normalized text parses back to a predicate that formats the same.
        var reparsed: Predicate?
        if !mentionsObjects(parsed) {
            do {
                reparsed = try PredicateParser.parse(text)
            } catch {
                return "\(format.debugDescription) formats as '\(text)', which does not parse: \(error)"
            }
            if reparsed!.description != text {
                return "\(format.debugDescription) formats as '\(text)', which parses back as '\(reparsed!.description)'"
            }
        }

        guard let bound = try? BoundPredicate(parsed, entity: fixture.item, context: fixture.context) else { return nil }
        _ = bound.swiftCode(typeName: "Item")
        let fragment = bound.sql(dialect: SQLiteDialect())
        let bySQL: Set<Int64>
        do {
            bySQL = Set(try fixture.context.connection.read { db in
                try Int64.fetchAll(db, sql: "SELECT _pk FROM Item WHERE \(fragment.sql)",
                                   arguments: StatementArguments(fragment.arguments.map(\.databaseValue)))
            })
        } catch {
            return "\(format.debugDescription): the SQL fails: \(error)\n  SQL: \(fragment.sql) \(fragment.arguments)"
        }
        let inMemory = Set(fixture.items.filter { bound.matches($0) }.map { $0.primaryKey! })
        if bySQL != inMemory {
            return "\(format.debugDescription): SQL selects \(bySQL.sorted()), matches selects \(inMemory.sorted())\n  SQL: \(fragment.sql) \(fragment.arguments)"
        }
        if let reparsed, let again = try? BoundPredicate(reparsed, entity: fixture.item, context: fixture.context) {
            let selected = Set(fixture.items.filter { again.matches($0) }.map { $0.primaryKey! })
            if selected != inMemory {
                return "\(format.debugDescription) selects \(inMemory.sorted()), its normalized form '\(text)' selects \(selected.sorted())"
            }
        }
        return nil
    }

    /// Objects given for `%@` format as `<Item/1>`, which is not meant to parse back.
    private static func mentionsObjects(_ p: Predicate) -> Bool {
        switch p {
        case .constant: return false
        case .not(let q): return mentionsObjects(q)
        case .and(let qs), .or(let qs): return qs.contains(where: mentionsObjects)
        case .comparison(let c): return mentionsObjects(c.lhs) || mentionsObjects(c.rhs)
        }
    }

    private static func mentionsObjects(_ e: Expression) -> Bool {
        switch e {
        case .object: return true
        case .aggregate(let es, _): return es.contains(where: mentionsObjects)
        case .subqueryCount(_, _, let p, _): return mentionsObjects(p)
        case .keyPath, .constant: return false
        case .arithmetic(_, let l, let r, _): return mentionsObjects(l) || mentionsObjects(r)
        case .negate(let inner, _), .index(let inner, _, _): return mentionsObjects(inner)
        case .function(_, let arguments, _): return arguments.contains(where: mentionsObjects)
        case .conditional(let p, let a, let b, _): return mentionsObjects(p) || mentionsObjects(a) || mentionsObjects(b)
        }
    }
}
