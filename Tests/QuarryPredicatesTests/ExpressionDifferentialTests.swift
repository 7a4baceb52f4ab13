import Foundation
import GRDB
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// The differential test for expressions: arithmetic, index expressions, functions,
/// aggregates and unquantified membership over an entity with a to-one and a to-many
/// relationship. SQL and `matches` must select the same rows. `scripts/stress
/// --predicates` runs it with DifferentialTests (the filter matches both names).
@Suite struct ExpressionDifferentialTests {
    struct Generator {
        var base: DifferentialTests.Generator

        mutating func number(_ args: inout [Value]) -> String {
            switch base.rng.int(0...5) {
            case 0: return String(base.rng.int(-6...6))
            case 1: return "\(Double(base.rng.int(-12...12)) / 4)"
            case 2:
                args.append(base.rng.chance(0.5) ? .integer(base.int()) : .real(base.double()))
                return "%@"
            case 3: return base.rng.pick(["YES", "NO", "nil"])
            default: return "\(base.rng.int(0...3))"
            }
        }

        mutating func term(_ args: inout [Value], depth: Int) -> String {
            switch base.rng.int(0...14) {
            case 0...3: return base.rng.pick(["i", "d", "b", "n", "owner.age"])
            case 4: return number(&args)
            case 5: return base.rng.pick(["tags.@count", "tags[SIZE]", "count:(tags)"])
            case 6: return "tags.@\(base.rng.pick(["sum", "avg", "min", "max"])).\(base.rng.pick(["w", "x"]))"
            case 7: return "\(base.rng.pick(["sum", "average", "min", "max"])):(tags.\(base.rng.pick(["w", "x"])))"
            case 8:
                let list = (0..<base.rng.int(0...3)).map { _ in String(base.rng.int(-3...9)) }
                // [0] on an empty list is refused on purpose; the others answer nil or a size.
                let index = list.isEmpty ? "SIZE" : base.rng.pick(["SIZE", "SIZE", "FIRST", "LAST", "0"])
                return "{\(list.joined(separator: ", "))}[\(index)]"
            case 9: return "SUBQUERY(tags, $t, $t.w \(base.randomOp()) \(base.rng.int(-3...5)))[SIZE]"
            case 10: return "\(base.rng.pick(["abs", "floor", "ceiling", "trunc", "sqrt"])):(\(expression(&args, depth: depth - 1)))"
            case 11: return "-" + term(&args, depth: depth - 1)
            default: return depth > 0 ? "(" + expression(&args, depth: depth - 1) + ")" : "i"
            }
        }

        mutating func expression(_ args: inout [Value], depth: Int) -> String {
            guard depth > 0, base.rng.chance(0.6) else { return term(&args, depth: 0) }
            let op = base.rng.pick(["+", "-", "*", "/", "**", "+", "*"])
            return "\(term(&args, depth: depth - 1)) \(op) \(expression(&args, depth: depth - 1))"
        }

        mutating func comparison(_ args: inout [Value]) -> String {
            switch base.rng.int(0...9) {
            case 0...5: return "\(expression(&args, depth: 2)) \(base.randomOp()) \(expression(&args, depth: 2))"
            case 6:
                let o = base.rng.pick(["", "[c]", "[cd]"])
                let name = base.rng.pick(["red", "Red", "blue", "grün", "x", ""])
                switch base.rng.int(0...2) {
                case 0: return "tags.name CONTAINS\(o) '\(name)'"
                case 1: return "'\(name)' IN\(o) tags.name"
                default:
                    args.append(.text(name))
                    args.append(.text("tags.name"))
                    return "%@ IN\(o) %K"
                }
            case 7:
                let o = base.rng.pick(["", "[c]", "[cd]"])
                let piece = base.rng.pick(["a", "é", "B", "", "ab", "Straße"])
                return base.rng.chance(0.5) ? "'\(piece)' IN\(o) s" : "s IN\(o) 'abcdé'"
            case 8:
                let f = base.rng.pick(["lowercase", "uppercase"])
                return
                    "\(f):(s) \(base.rng.pick(["==", "BEGINSWITH", "CONTAINS[c]", "<"])) '\(base.string().replacingOccurrences(of: "'", with: ""))'"
            default: return base.comparison(&args)
            }
        }

        mutating func predicate(depth: Int, _ args: inout [Value]) -> String {
            if depth == 0 || base.rng.chance(0.4) { return comparison(&args) }
            if base.rng.chance(0.25) { return "NOT (" + predicate(depth: depth - 1, &args) + ")" }
            let joiner = base.rng.chance(0.5) ? " AND " : " OR "
            return "(" + predicate(depth: depth - 1, &args) + ")" + joiner + "(" + predicate(depth: depth - 1, &args) + ")"
        }
    }

    @Test func sqlAndMatchesAgreeOnExpressions() throws {
        let context = try StoreOpener.open(nil)
        try context.define(
            EntityDescription(
                name: "Item",
                attributes: DifferentialTests.entity.attributes + [
                    AttributeDescription(name: "n", type: .int16, isOptional: true)
                ],
                relationships: [
                    RelationshipDescription(name: "owner", destination: "Person", inverse: "items", isToMany: false),
                    RelationshipDescription(name: "tags", destination: "Tag", inverse: "items", isToMany: true)
                ]))
        try context.define(EntityDescription(name: "Person", attributes: [AttributeDescription(name: "age", type: .int64, isOptional: true)]))
        try context.define(
            EntityDescription(
                name: "Tag",
                attributes: [
                    AttributeDescription(name: "name", type: .string, isOptional: true),
                    AttributeDescription(name: "w", type: .int64, isOptional: true),
                    AttributeDescription(name: "x", type: .double, isOptional: true)
                ]))
        let item = try context.entity(named: "Item")
        let environment = ProcessInfo.processInfo.environment
        let caseCount = environment["QUARRY_DIFFERENTIAL_CASES"].flatMap(Int.init) ?? 2000
        let seed = environment["QUARRY_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 20_240_122
        var generator = Generator(base: DifferentialTests.Generator(rng: SplitMix64(seed: seed &+ 17)))

        let people = try (0..<5).map { k in
            try context.insert(into: "Person", values: ["age": k == 4 ? .null : .integer(generator.base.int())])
        }
        var tags: [ManagedObject] = []
        for k in 0..<12 {
            let w: Value = k % 5 == 0 ? .null : .integer(generator.base.smallInt())
            let x: Value = k % 7 == 0 ? .null : .real(generator.base.double())
            let name: Value = .text(["red", "Red", "blue", "grün", "GRUN", "x"][k % 6])
            tags.append(try context.insert(into: "Tag", values: ["name": name, "w": w, "x": x]))
        }
        var objects: [ManagedObject] = []
        for k in 0..<120 {
            var row = generator.base.row()
            row["n"] = generator.base.rng.chance(0.2) ? .null : .integer(Int64(generator.base.rng.int(-32768...32767)))
            let o = try context.insert(into: "Item", values: row)
            if k % 6 != 0 { try context.setRelatedObject(people[k % people.count], "owner", of: o) }
            for _ in 0..<generator.base.rng.int(0...3) { try context.addRelated(generator.base.rng.pick(tags), to: "tags", of: o) }
            objects.append(o)
        }
        try context.save()

        var mismatches: [String] = []
        var refused: [String: Int] = [:]
        var checked = 0
        var discriminating = 0
        for _ in 0..<caseCount {
            var args: [Value] = []
            let format = generator.predicate(depth: 2, &args)
            let bound: BoundPredicate
            do {
                bound = try BoundPredicate(try PredicateParser.parse(format, arguments: PredicateArguments(args)), entity: item, context: context)
            } catch let error as QuarryPredicates.PredicateError {
                // Generated expressions may be refused on purpose (a string compared with a
                // number, an index past a list's end); the refusal must be one of those.
                refused[String(error.message.prefix(40)), default: 0] += 1
                continue
            }
            checked += 1
            let fragment = bound.sql(dialect: SQLiteDialect())
            let bySQL = try selectedKeys(where: fragment, in: context)
            let inMemory = Set(objects.filter { bound.matches($0) }.compactMap(\.primaryKey))
            if !bySQL.isEmpty, bySQL.count < objects.count { discriminating += 1 }
            if bySQL != inMemory, mismatches.count < 6 {
                mismatches.append(
                    "\(format) \(args)\n  SQL: \(fragment.sql) \(fragment.arguments)\n  differ: \(bySQL.symmetricDifference(inMemory).sorted().prefix(5))"
                )
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        // Most generated predicates bind, and many select some rows but not all.
        #expect(checked > caseCount * 3 / 4, "refused: \(refused.sorted { $0.value > $1.value }.prefix(8))")
        #expect(discriminating > checked / 4)
    }
}
