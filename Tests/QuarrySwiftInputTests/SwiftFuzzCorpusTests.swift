import Foundation
import Testing

/// Replays every input of the fuzz corpus in Fuzz/corpus/swift/ (what `p:swift()` writes,
/// and what the fuzzer found from it) through the fuzz target's own driver (SwiftFuzzDriver,
/// compiled here through a symbolic link). scripts/fuzz adds to the corpus; docs/fuzzing.md
/// explains.
@Suite(.serialized) struct SwiftFuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/corpus/swift").standardizedFileURL
    static let inputs = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()

    @Test func theCorpusIsThere() {
        #expect(Self.inputs.count >= 50, "no corpus at \(Self.corpus.path)")
    }

    @Test(arguments: inputs) func replay(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
        let finding = SwiftFuzzDriver.run(bytes)
        #expect(finding == nil, "Fuzz/corpus/swift/\(name): \(finding ?? "")")
    }
}
