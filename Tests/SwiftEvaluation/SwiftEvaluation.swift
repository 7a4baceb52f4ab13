import Foundation
import QuarryFetch
import QuarryModel
import QuarryModelFiles
import QuarryPredicates
import QuarryStore
import QuarryTestSupport

/// Issue #27 part 5: Quarry's `#Predicate` export proven against swift-foundation's
/// macro. For an entity of an open store and a list of predicates, it writes the store's
/// entities as plain Swift classes (`PlainSwiftClasses`), a sample of the entity's objects
/// and what they lead to as a rows file those classes read (`ObjectGraphRows`), and each
/// predicate's Swift export (`swiftCode`, what `p:swift()` prints) in one program, which
/// swiftc compiles and runs: `Predicate.evaluate` selects objects of the sample, which must
/// be the ones Quarry's fetch selects among the same sample. A predicate Quarry refuses to
/// export (`// #Predicate: not expressible (...)`) is counted with its reason, not compared.
public enum SwiftEvaluation {
    public struct Case {
        public let label: String
        public let predicate: QuarryPredicates.Predicate
        /// Swift a person wrote, ending `let query = #Predicate<T> { ... }`, evaluated instead
        /// of the predicate's export: the `#Predicate` Quarry read `predicate` from.
        public let swift: [String]?
        public init(_ label: String, _ predicate: QuarryPredicates.Predicate, swift: [String]? = nil) {
            self.label = label
            self.predicate = predicate
            self.swift = swift
        }
    }

    public struct Report: CustomStringConvertible {
        public var cases = 0, exported = 0, agreed = 0
        /// Each refused case's label and the comment the export wrote instead.
        public var refusals: [String] = []
        /// Each disagreement: predicate, Swift code, and the ids only one side selected.
        public var mismatches: [String] = []
        /// How many compared cases selected some but not all of the sample: a test that
        /// only ever selects all or nothing proves little.
        public var discriminating = 0

        public init() {}

        /// The refusals' reasons, numbers left out, with how many cases gave each, most first.
        public var reasons: [(String, Int)] {
            var counts: [String: Int] = [:]
            for r in refusals {
                guard let start = r.range(of: "not expressible (") else { continue }
                let reason = r[start.upperBound...].prefix { $0 != ":" && $0 != ")" }.filter { !$0.isNumber }
                counts[reason.trimmingCharacters(in: .whitespaces), default: 0] += 1
            }
            return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        }

        public var description: String {
            "\(cases) cases, \(exported) exported as #Predicate, \(refusals.count) refused, \(agreed) agreed, \(mismatches.count) disagreed, \(discriminating) selected some but not all"
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `cases` over `entity` in `context`: the first `sample` objects by key (with
    /// sub-entities), objects up to `depth` relationship steps from them, `batch` cases per
    /// compiled program.
    public static func run(
        _ cases: [Case], entity entityName: String, in context: ObjectContext,
        sample size: Int = 200, depth: Int = 2, batch: Int = 400, typeCheckSeconds: Int = 10
    ) throws -> Report {
        let entity = try context.entity(named: entityName)
        let sample = try FetchRequest(entityName: entityName, limit: size).execute(in: context).objects()
        var graph = ObjectGraphRows(context: context)
        try graph.load(sample, depth: depth)
        let sampleIDs = try sample.map { try graph.id($0) }
        let inSample = Set(sampleIDs)
        let rowsFile = try JSONSerialization.data(withJSONObject: ["rows": graph.rows, "sample": sampleIDs])
        let classes = PlainSwiftClasses(entities: context.entities)

        var report = Report()
        var exported: [(label: String, predicate: QuarryPredicates.Predicate, code: [String], expected: Set<String>)] = []
        for c in cases {
            report.cases += 1
            let bound = try BoundPredicate(c.predicate, entity: entity, context: context)
            let code = c.swift ?? bound.swiftCode().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let last = code.last, last.hasPrefix("let query = #Predicate<") else {
                report.refusals.append("\(c.label): \(code.last ?? "")")
                continue
            }
            let selected = try FetchRequest(entityName: entityName, predicate: c.predicate).execute(in: context).objects()
            exported.append((c.label, c.predicate, code, Set(try selected.map { try graph.id($0) }).intersection(inSample)))
        }
        report.exported = exported.count

        let type = SwiftModelSource.identifier(entityName)
        for start in stride(from: 0, to: exported.count, by: batch) {
            let part = exported[start..<min(start + batch, exported.count)]
            var program = classes.source + main(classes: context.entities, type: type)
            // Which case each line of the program belongs to, to name it in a compile error.
            var owner: [Int: Int] = [:]
            for (n, c) in zip(part.indices, part) {
                let first = program.split(separator: "\n", omittingEmptySubsequences: false).count
                let body = c.code.map {
                    $0.replacingOccurrences(of: "let predicate = NSPredicate(format:", with: "let predicate = StandInNSPredicate(format:")
                }
                program += "do {\n" + body.joined(separator: "\n") + "\n    report(\(n), query)\n}\n"
                for line in first...(first + body.count + 2) { owner[line] = n }
            }
            let printed: [String]
            do {
                // A #Predicate the type checker takes longer than this on is as good as one
                // that does not compile, for the app it is pasted into (the default is 600 s).
                printed = try SwiftCompiler.compileAndRun(
                    program, files: ["rows.json": rowsFile],
                    options: ["-Xfrontend", "-solver-expression-time-threshold=\(typeCheckSeconds)"])
            } catch {
                // Kept for whoever reads the failure: a macro's errors name no line of it.
                let kept = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-swift-evaluation-failed.swift")
                try? program.write(to: kept, atomically: true, encoding: .utf8)
                throw Failure(description: explain(error, owner: owner, cases: exported) + "\n(the program: \(kept.path))")
            }
            var answers: [Int: String] = [:]
            for line in printed {
                guard let colon = line.firstIndex(of: ":"), let n = Int(line[..<colon]) else { continue }
                answers[n] = String(line[line.index(after: colon)...])
            }
            for n in part.indices {
                let c = exported[n]
                guard let answer = answers[n] else {
                    report.mismatches.append("\(c.label): the program printed no answer")
                    continue
                }
                if answer.hasPrefix("error ") {
                    report.mismatches.append("\(c.label): \(c.predicate)\n  \(c.code.joined(separator: "\n  "))\n  evaluate threw: \(answer)")
                    continue
                }
                let swift = Set(answer.split(separator: ",").map(String.init))
                if swift == c.expected {
                    report.agreed += 1
                    if !swift.isEmpty, swift.count < inSample.count { report.discriminating += 1 }
                } else {
                    let onlyQuarry = c.expected.subtracting(swift).sorted().prefix(8)
                    let onlySwift = swift.subtracting(c.expected).sorted().prefix(8)
                    report.mismatches.append(
                        "\(c.label): \(c.predicate)\n  \(c.code.joined(separator: "\n  "))\n"
                            + "  Quarry \(c.expected.count), Swift \(swift.count); only Quarry: \(onlyQuarry.joined(separator: " ")); only Swift: \(onlySwift.joined(separator: " "))"
                    )
                }
            }
        }
        return report
    }

    /// Reads the rows, builds and wires the objects, and defines `report`, which prints a
    /// case's number and the ids of the sample's objects its `#Predicate` selects.
    private static func main(classes entities: [EntityDescription], type: String) -> String {
        var code = """
            let file = (try? Data(contentsOf: URL(fileURLWithPath: "rows.json"))).flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any]
            guard let rows = file?["rows"] as? [[String: Any]], let sampleIDs = file?["sample"] as? [String] else { Parse.fail("no rows.json") }
            var objects: [String: AnyObject] = [:]
            for r in rows {
                switch r["_class"] as? String {

            """
        for e in entities {
            code +=
                "    case \(PlainSwiftClasses(entities: entities).swiftStringLiteralText(e.name))?: objects[Parse.id(r)] = \(SwiftModelSource.identifier(e.name))(r)\n"
        }
        code += """
                default: Parse.fail("a row of no class: \\(Parse.id(r))")
                }
            }
            for r in rows { (objects[Parse.id(r)] as? Wired)?.wire(r, objects) }
            let sample: [\(type)] = sampleIDs.map { id in
                guard let object = objects[id] as? \(type) else { Parse.fail("sample object \\(id) is missing") }
                return object
            }
            func report(_ n: Int, _ query: Predicate<\(type)>) {
                do { print("\\(n):" + (try sample.filter { try query.evaluate($0) }).map(\\.quarryID).joined(separator: ",")) }
                catch { print("\\(n):error \\(error)") }
            }

            """
        return code
    }

    /// A compile failure with the cases its errors are in.
    private static func explain(
        _ error: Error, owner: [Int: Int], cases: [(label: String, predicate: QuarryPredicates.Predicate, code: [String], expected: Set<String>)]
    ) -> String {
        var text = "\(error)"
        var named: Set<Int> = []
        for line in text.split(separator: "\n") where line.hasPrefix("main.swift:") {
            let parts = line.split(separator: ":")
            if parts.count > 1, let number = Int(parts[1]), let n = owner[number], named.insert(n).inserted {
                text += "\nin case \(cases[n].label): \(cases[n].predicate)\n  " + cases[n].code.joined(separator: "\n  ")
            }
        }
        return text
    }
}
