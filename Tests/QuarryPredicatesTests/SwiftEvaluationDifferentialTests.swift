import Foundation
import QuarryModel
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftEvaluation
import QuarryTestSupport
import Testing

/// Issue #27 part 5: random predicates, exported as `#Predicate` and evaluated by
/// swift-foundation's macro over plain Swift objects holding random rows, select what
/// Quarry's fetch selects. Two entities: `Item`, the differential test's, every attribute
/// optional, with its generator's predicates as they come (most refused: [c], LIKE,
/// numbers against strings); and `Strict`, the same attributes, all but `u` required, with
/// those predicates and `SwiftFormsGenerator`'s (BEGINSWITH, CONTAINS, IN, BETWEEN, nil).
/// Every exported case must agree; refused ones are counted, and of those in #Predicate's
/// forms fewer than half may be refused (a fifth of their tests are the differential
/// generator's).
/// `scripts/stress --swift CASES SEED` sets QUARRY_SWIFT_CASES and QUARRY_SWIFT_SEED.
@Suite struct SwiftEvaluationDifferentialTests {
    static let strict = EntityDescription(
        name: "Strict",
        attributes: DifferentialTests.entity.attributes.map { a in
            var a = a
            a.isOptional = a.name == "u"
            return a
        })

    @Test func randomPredicatesSelectInSwiftWhatQuarryFetches() throws {
        let environment = ProcessInfo.processInfo.environment
        let caseCount = environment["QUARRY_SWIFT_CASES"].flatMap(Int.init) ?? 300
        let seed = environment["QUARRY_SWIFT_SEED"].flatMap(UInt64.init) ?? 20_260_427
        let context = try StoreOpener.open(nil)
        try context.define(DifferentialTests.entity)
        try context.define(Self.strict)
        var generator = SwiftFormsGenerator(seed: seed)
        let required = Set(Self.strict.attributes.filter { !$0.isOptional }.map(\.name))
        for _ in 0..<150 {
            _ = try context.insert(into: "Item", values: generator.base.row().mapValues(SwiftFormsGenerator.composed))
            _ = try context.insert(into: "Strict", values: generator.row(required: required))
        }
        try context.save()

        // A quarter over Item, the rest over Strict; of those, a third from the differential generator.
        var item: [SwiftEvaluation.Case] = []
        var strict: [SwiftEvaluation.Case] = []
        for n in 0..<caseCount {
            var args: [Value] = []
            let onItem = n % 4 == 0
            let forms = !onItem && n % 3 != 0
            let format = forms ? generator.predicate(depth: 3, &args) : generator.base.predicate(depth: 3, &args)
            let parsed = try PredicateParser.parse(format, arguments: PredicateArguments(args))
            let c = SwiftEvaluation.Case("#\(n) \(forms ? "forms" : "base") \(format) \(args)", parsed)
            if onItem { item.append(c) } else { strict.append(c) }
        }
        let reports = [
            try SwiftEvaluation.run(item, entity: "Item", in: context, sample: 150),
            try SwiftEvaluation.run(strict, entity: "Strict", in: context, sample: 150)
        ]
        var total = SwiftEvaluation.Report()
        for r in reports {
            total.cases += r.cases
            total.exported += r.exported
            total.agreed += r.agreed
            total.refusals += r.refusals
            total.mismatches += r.mismatches
            total.discriminating += r.discriminating
        }
        print("SwiftEvaluationDifferentialTests: Item: \(reports[0]); Strict: \(reports[1]); all: \(total)")
        print("refused: " + total.reasons.map { "\($0.1) \($0.0)" }.joined(separator: "; "))
        #expect(total.mismatches.isEmpty, "\(total.mismatches.count) disagreements:\n\(total.mismatches.prefix(8).joined(separator: "\n"))")
        #expect(total.cases == caseCount)
        #expect(total.agreed == total.exported)
        // The differential generator's predicates aim at what #Predicate cannot say ([c],
        // LIKE, mixed types), so most of them are refused; those in #Predicate's forms are
        // refused only when too large for Swift's type checker or for those tests.
        let forms = total.refusals.filter { $0.contains(" forms ") }
        let formsCases = (0..<caseCount).filter { $0 % 4 != 0 && $0 % 3 != 0 }.count
        #expect(
            forms.count * 2 < formsCases,
            "\(forms.count) of \(formsCases) cases in #Predicate's forms refused:\n\(forms.prefix(10).joined(separator: "\n"))")
        #expect(total.discriminating * 3 > total.exported, "few cases select some but not all rows: \(total)")
    }
}
