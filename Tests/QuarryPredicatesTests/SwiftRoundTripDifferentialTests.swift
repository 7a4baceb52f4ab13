import Foundation
import GRDB
import QuarryModel
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import QuarrySwiftReading
import QuarryTestSupport
import Testing

/// Issue #27 part 4: the differential generator's random predicates, written as
/// `#Predicate` (`swiftPredicateMacro`) and read back (`SwiftPredicateReader`), select in
/// SQL and in memory what the predicates they came from select. Those the exporter
/// refuses are counted: this generator aims at what SQL and memory may disagree on
/// ([c], [d], LIKE, MATCHES, numbers against strings), most of which #Predicate cannot
/// say, so a fifth must pass through, or the test proves little.
@Suite struct SwiftRoundTripDifferentialTests {
    @Test func randomPredicatesReadBackFromSwiftSelectTheSameRows() throws {
        let context = try StoreOpener.open(nil)
        try context.define(DifferentialTests.entity)
        let environment = ProcessInfo.processInfo.environment
        let caseCount = environment["QUARRY_DIFFERENTIAL_CASES"].flatMap(Int.init) ?? 1500
        var generator = DifferentialTests.Generator(rng: SplitMix64(seed: environment["QUARRY_DIFFERENTIAL_SEED"].flatMap(UInt64.init) ?? 20_261_124))
        var objects: [ManagedObject] = []
        for _ in 0..<200 { objects.append(try context.insert(into: "Item", values: generator.row())) }
        try context.save()

        func selected(_ bound: BoundPredicate) throws -> (sql: Set<Int64>, memory: Set<Int64>) {
            let fragment = bound.sql(dialect: SQLiteDialect())
            let bySQL = try selectedKeys(where: fragment, in: context)
            return (bySQL, Set(objects.filter { bound.matches($0) }.compactMap(\.primaryKey)))
        }

        var readBack = 0
        var refused = 0
        var mismatches: [String] = []
        for _ in 0..<caseCount {
            var args: [Value] = []
            let format = generator.predicate(depth: 3, &args)
            guard let parsed = try? PredicateParser.parse(format, arguments: PredicateArguments(args)),
                let bound = try? BoundPredicate(parsed, entity: DifferentialTests.entity)
            else { continue }
            guard let macro = try? bound.swiftPredicateMacro(typeName: "Item") else {
                refused += 1
                continue
            }
            let source = (macro.captures + [macro.macro]).joined(separator: "\n")
            do {
                let read = try SwiftPredicateReader.read(source, captures: [:])
                let back = try BoundPredicate(read.predicate, entity: DifferentialTests.entity)
                let (sql, memory) = try selected(back)
                let (originalSQL, _) = try selected(bound)
                if sql != originalSQL || memory != originalSQL, mismatches.count < 5 {
                    mismatches.append(
                        "\(format) \(args)\n  Swift: \(source)\n  read: \(read.predicate)\n  original \(originalSQL.count) rows, read back SQL \(sql.count), memory \(memory.count)"
                    )
                }
                readBack += 1
            } catch {
                if mismatches.count < 5 { mismatches.append("\(format) \(args)\n  Swift: \(source)\n  not read: \(error)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(readBack > caseCount / 5, "only \(readBack) of \(caseCount) read back (\(refused) refused by the exporter)")
    }
}
