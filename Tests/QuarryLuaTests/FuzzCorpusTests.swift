import Foundation
import Testing

/// Replays every input of the fuzz corpus in Fuzz/corpus/lua/ through the fuzz target's own
/// driver (LuaFuzzDriver, compiled here through a symbolic link), so that what the fuzzer once
/// found stays fixed. scripts/fuzz adds to the corpus; docs/fuzzing.md explains.
@Suite(.serialized) struct LuaFuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/corpus/lua").standardizedFileURL
    static let inputs = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()

    @Test func theCorpusIsThere() {
        #expect(Self.inputs.count >= 10, "no corpus at \(Self.corpus.path)")
    }

    @Test(arguments: inputs) func replay(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
        let finding = LuaFuzzDriver.run(bytes, storeDeadline: false)
        #expect(finding == nil, "Fuzz/corpus/lua/\(name): \(finding ?? "")")
    }
}
