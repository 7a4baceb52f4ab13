import Foundation
import Testing

/// Replays every input of the decimal fuzz corpus in Fuzz/corpus/decimal/ through the fuzz
/// target's own driver (DecimalFuzzDriver, compiled here through a symbolic link), so that
/// what the fuzzer once found stays fixed. docs/fuzzing.md explains.
@Suite struct DecimalFuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/corpus/decimal").standardizedFileURL
    static let inputs = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []).sorted()

    @Test func theCorpusIsThere() {
        #expect(Self.inputs.count >= 10, "no corpus at \(Self.corpus.path)")
    }

    @Test(arguments: inputs) func replay(_ name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name)))
        let finding = DecimalFuzzDriver.run(bytes)
        #expect(finding == nil, "Fuzz/corpus/decimal/\(name): \(finding ?? "")")
    }

    /// Ordinary pairs and a pair of 5,000 digits pass every check of the driver.
    @Test func ordinaryAndLongPairsPass() throws {
        #expect(DecimalFuzzDriver.run(Array("1\n3".utf8)) == nil)
        #expect(DecimalFuzzDriver.run(Array("1e5000\n1".utf8)) == nil)
    }
}
