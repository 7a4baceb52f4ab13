import Foundation
import QuarryModel
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import QuarrySwiftReading
import Testing

/// The `quarry-swift-reader` process against the reading in this process: the same
/// predicate, sort keys or refusal (kind, message, column) for every input of the Swift
/// fuzz corpus and for captures of each kind of value; one process for a session's reads;
/// a missing or ended process a one-line failure. The process is the one `swift build`
/// puts beside this test binary.
@Suite(.serialized) struct SwiftReaderProcessTests {
    /// What a reader gives for `source`, as a value to compare.
    enum Outcome: Equatable {
        case predicate(SwiftPredicateReader.Read)
        case keys([SwiftSortReader.Key])
        case refused(QuarryPredicates.PredicateError)
        case failed(String)
    }

    static func outcome(_ reader: any SwiftInputReading, _ source: String, _ captures: [String: PredicateArgument] = [:]) -> Outcome {
        do {
            if SwiftSortReader.isSwift(source) { return .keys(try reader.readSortKeys(source)) }
            return .predicate(try reader.readPredicate(source, captures: captures))
        } catch let error as QuarryPredicates.PredicateError {
            return .refused(error)
        } catch {
            return .failed("\(error)")
        }
    }

    /// A reader running the process built beside this test binary; fails saying so when it is not there.
    static func process() throws -> SwiftReaderProcess {
        let reader = SwiftReaderProcess()
        _ = try reader.readSortKeys(#"\.x"#)
        return reader
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/corpus/swift").standardizedFileURL

    @Test func theCorpusReadsAlikeInOneProcess() throws {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)) ?? []).sorted()
        #expect(names.count >= 50, "no corpus at \(Self.corpus.path)")
        let reader = try Self.process()
        let local = InProcessSwiftReader()
        var refused = 0
        for name in names {
            let source = String(decoding: try Data(contentsOf: Self.corpus.appendingPathComponent(name)), as: UTF8.self)
            let expected = Self.outcome(local, source)
            #expect(Self.outcome(reader, source) == expected, "Fuzz/corpus/swift/\(name)")
            if case .refused = expected { refused += 1 }
        }
        // Both kinds of answer were compared, and every read went to the one process.
        #expect(refused > 0 && refused < names.count)
        #expect(reader.processesStarted == 1)
    }

    @Test func capturesOfEveryKindComeBackExactly() throws {
        let context = try StoreOpener.open(nil)
        try context.define(EntityDescription(name: "Person", attributes: [AttributeDescription(name: "name", type: .string)]))
        let ann = try context.insert(into: "Person", values: ["name": .text("Ann")])
        let bob = try context.insert(into: "Person", values: ["name": .text("Bob")])
        let values: [PredicateArgument] = [
            .value(.integer(Int64.max)), .value(.integer(Int64.min)), .value(.real(0.1)), .value(.real(-0.0)),
            .value(.real(.infinity)), .value(.real(-.infinity)), .value(.real(.leastNonzeroMagnitude)),
            .value(.date(-978_307_200.000_001)), .value(.blob([0, 255, 10])), .value(.textBytes([0xFF, 0xFE])),
            .value(.text("é\u{0}\"\n")), .value(.decimal("195.10")), .value(.bool(true)), .value(.null),
            .list([.integer(1), .real(2.5), .text("x")]), .object(ObjectReference(ann)),
            .objects([ObjectReference(ann), ObjectReference(bob), ObjectReference(ann)])
        ]
        let reader = try Self.process()
        let local = InProcessSwiftReader()
        for value in values {
            let source = #"#Predicate<Item> { $0.v == c || $0.w == c }"#
            let read = Self.outcome(reader, source, ["c": value])
            #expect(read == Self.outcome(local, source, ["c": value]), "\(value)")
            guard case .predicate(let got) = read else { continue }
            // The objects are the ones given, not copies.
            if case .or(let parts) = got.predicate, case .comparison(let first) = parts.first, case .object(let object, _) = first.rhs {
                #expect(object.object === ann)
            }
        }
        // NaN equals nothing, so its bits are compared.
        let nan = Double(bitPattern: 0x7FF8_0000_0000_0BAD)
        let read = try reader.readPredicate(#"#Predicate<Item> { $0.v == c }"#, captures: ["c": .value(.real(nan))])
        guard case .comparison(let comparison) = read.predicate, case .constant(.real(let got), _) = comparison.rhs else {
            Issue.record("not a comparison with the constant: \(read.predicate)")
            return
        }
        #expect(got.bitPattern == nan.bitPattern)
    }

    @Test func refusalsKeepTheirKindMessageAndColumn() throws {
        let reader = try Self.process()
        let local = InProcessSwiftReader()
        let sources = [
            #"#Predicate<Item> { $0.qty > }"#, #"#Predicate<Item> { $0.qty == missing }"#, #"#Predicate<Item, Int> { $0.qty > 1 }"#,
            #"#Predicate<Item> { $0.title.uppercased() == "A" }"#, #"SortDescriptor(\.time, order: .sideways)"#, #"[\.a, 3]"#
        ]
        for source in sources {
            let got = Self.outcome(reader, source)
            #expect(got == Self.outcome(local, source), "\(source)")
            guard case .refused(let error) = got else {
                Issue.record("\(source) was not refused: \(got)")
                continue
            }
            #expect(error.column != nil, "\(source): \(error)")
        }
    }

    @Test func aMissingReaderFailsInOneLine() {
        let reader = SwiftReaderProcess(candidates: ["/nonexistent/quarry-swift-reader"], searched: "beside /nonexistent/quarry")
        #expect(throws: SwiftReaderFailure("quarry-swift-reader not found beside /nonexistent/quarry")) {
            try reader.readPredicate(#"#Predicate<Item> { $0.qty > 1 }"#, captures: [:])
        }
        #expect(reader.processesStarted == 0)
    }

    @Test func anEndedReaderFailsOnceAndTheNextReadStartsAnother() throws {
        let reader = try Self.process()
        let pid = try #require(reader.processID)
        kill(pid, SIGKILL)
        do {
            _ = try reader.readSortKeys(#"\.a"#)
            Issue.record("a read from a killed process succeeded")
        } catch let failure as SwiftReaderFailure {
            #expect(failure.description.hasPrefix("cannot read Swift: "))
            #expect(failure.description.hasSuffix("ended (killed by signal 9)"), "\(failure)")
            #expect(!failure.description.contains("\n"))
        }
        #expect(try reader.readSortKeys(#"\.a"#) == [SwiftSortReader.Key(key: "a", ascending: true, comparator: nil)])
        #expect(reader.processesStarted == 2)
        #expect(reader.processID != pid)
    }
}
