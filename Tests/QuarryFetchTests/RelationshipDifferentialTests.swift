import Foundation
import GRDB
import QuarryFetch
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryStore
import QuarryTestSupport
import Testing

/// Random predicates over to-one key paths (by value, with nil, dangling and repeated
/// links) and own columns: the joined SQL of a fetch, the stand-alone subquery form and
/// the in-memory evaluator must select the same rows. QUARRY_DIFFERENTIAL_CASES and
/// QUARRY_DIFFERENTIAL_SEED scale it, as for DifferentialTests (20,000 cases in stress runs).
@Suite struct RelationshipDifferentialTests {
    private struct Generator {
        var rng: SplitMix64
        let texts: [String: [Value]] = [
            "destination.tzone": [
                .text("America/New_York"), .text("America/Los_Angeles"), .text("Europe/Paris"), .text("Nowhere"), .text("america/new_york")
            ],
            "destination.name": [.text("Èze"), .text("eze"), .text("Kennedy"), .text("O'Hare"), .text("Other")],
            "destination.code": [.text("JFK"), .text("EZE"), .text("XXX")],
            "plane.maker": [.text("BOEING"), .text("AIRBUS"), .text("boeing"), .text("DUPLICATE")],
            "plane.tail": [.text("N1"), .text("N2"), .text("N9")],
            "dest": [.text("JFK"), .text("ORD"), .text("XXX")],
            "tail": [.text("N1"), .text("N3")]
        ]

        mutating func comparison(_ args: inout [Value]) -> String {
            if rng.chance(0.12) {
                return rng.pick([
                    "destination == nil", "destination != nil", "plane == nil", "plane != nil",
                    "destination.tzone == plane.maker", "destination.code == dest", "plane.tail != tail"
                ])
            }
            if rng.chance(0.15) {
                args.append(.integer(Int64(rng.int(-2...31))))
                return "n \(rng.pick(["==", "!=", "<", ">=", ">"])) %@"
            }
            let key = rng.pick(Array(texts.keys).sorted())
            if rng.chance(0.15) { return "\(key) \(rng.pick(["==", "!="])) nil" }
            var value = rng.pick(texts[key]!)
            let op = rng.pick(["==", "!=", "<", ">", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN"])
            let options = op == "<" || op == ">" ? "" : rng.pick(["", "", "[c]", "[d]", "[cd]"])
            if op == "IN" {
                args += [value, rng.pick(texts[key]!)]
                return "\(key) IN\(options) {%@, %@}"
            }
            if ["BEGINSWITH", "ENDSWITH", "CONTAINS"].contains(op), case .text(let t) = value { value = .text(String(t.prefix(rng.int(1...4)))) }
            if op == "LIKE", case .text(let t) = value { value = .text("*" + String(t.dropFirst(rng.int(0...2)))) }
            args.append(value)
            return "\(key) \(op)\(options) %@"
        }

        mutating func predicate(depth: Int, _ args: inout [Value]) -> String {
            guard depth > 0, rng.chance(0.6) else { return comparison(&args) }
            switch rng.int(0...2) {
            case 0: return "NOT (\(predicate(depth: depth - 1, &args)))"
            case 1: return "(\(predicate(depth: depth - 1, &args))) AND (\(predicate(depth: depth - 1, &args)))"
            default: return "(\(predicate(depth: depth - 1, &args))) OR (\(predicate(depth: depth - 1, &args)))"
            }
        }
    }

    @Test func joinsSubqueriesAndMemoryAgree() throws {
        let context = try RelationshipJoinTests.flightStore()
        let entity = try context.entity(named: "Flight")
        let flights = try FetchRequest(entityName: "Flight").execute(in: context).objects()
        let environment = ProcessInfo.processInfo.environment
        let caseCount = environment["QUARRY_DIFFERENTIAL_CASES"].flatMap(Int.init) ?? 1500
        var generator = Generator(rng: SplitMix64(seed: environment["QUARRY_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 20_261_122))
        var mismatches: [String] = []
        var discriminating = 0
        var refused = 0
        for _ in 0..<caseCount {
            var args: [Value] = []
            let format = generator.predicate(depth: 3, &args)
            let predicate: QuarryPredicates.Predicate
            let bound: BoundPredicate
            do {
                predicate = try PredicateParser.parse(format, arguments: PredicateArguments(args))
                bound = try BoundPredicate(predicate, entity: entity, context: context)
            } catch {
                refused += 1
                continue
            }
            let joined = try FetchRequest(entityName: "Flight", predicate: predicate).objectIDs(in: context)
            let old = bound.sql(dialect: SQLiteDialect())
            let subquery = try context.connection.read { db in
                try Int64.fetchAll(
                    db, sql: "SELECT _pk FROM Flight WHERE \(old.sql) ORDER BY _pk", arguments: StatementArguments(old.arguments.map(\.databaseValue))
                )
            }.map { "Flight/\($0)" }
            let inMemory = flights.filter { bound.matches($0) }.map(\.objectID)
            if !inMemory.isEmpty && inMemory.count < flights.count { discriminating += 1 }
            if joined != inMemory || subquery != inMemory, mismatches.count < 5 {
                mismatches.append("\(format) \(args)\n  join \(joined)\n  subquery \(subquery)\n  memory \(inMemory)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(refused < caseCount / 20, "\(refused) predicates refused")
        #expect(discriminating > caseCount / 2)
    }
}
