import Foundation
import Testing

/// Replays every input of the fuzz corpus in Fuzz/corpus/model/ through the fuzz target's
/// own driver (ModelFuzzDriver, compiled here through a symbolic link), so that what the
/// fuzzer once found stays fixed. scripts/fuzz adds to the corpus; docs/fuzzing.md explains.
@Suite(.serialized) struct ModelFuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/corpus/model").standardizedFileURL
    static let inputs = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()

    @Test func theCorpusIsThere() {
        #expect(Self.inputs.count >= 10, "no corpus at \(Self.corpus.path)")
    }

    @Test(arguments: inputs) func replay(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
        let finding = ModelFuzzDriver.run(bytes)
        #expect(finding == nil, "Fuzz/corpus/model/\(name): \(finding ?? "")")
    }
}
