import QuarryModelFiles
import Testing

/// `PlistDictionary` (a property list's dictionary, looked up by scanning tagged keys)
/// answers as the Swift dictionary it replaced: String's equality, the later of two equal
/// keys, small and big dictionaries alike.
@Suite struct PlistDictionaryTests {
    /// What a `[String: Plist]` built in the same order answers for `key`.
    static func swiftAnswer(_ keys: [String], _ values: [Plist], _ key: String) -> Plist? {
        var dictionary: [String: Plist] = [:]
        for (k, v) in zip(keys, values) { dictionary[k] = v }
        return dictionary[key]
    }

    @Test func answersAsASwiftDictionary() {
        let cases: [[String]] = [
            ["$class", "NSEntityName", "NSAttributeType", "NSIsOptional"],
            // A key given twice: the later one's value.
            ["NSPropertyName", "NSFlagsKey", "NSPropertyName"],
            // Canonically equal keys are one key for String: "é" composed and decomposed,
            // and the Kelvin sign, which is "K".
            ["caf\u{E9}", "cafe\u{301}", "\u{212A}ey", "Key"],
            // ASCII keys (scanned by tag) asked for by a key that is not ASCII.
            ["Key", "NSFlagsKey"],
            ["", "a", "ab", "ba", "abc", "acb"],
            // Past the scanned size: a hash index.
            (0..<40).map { "key\($0)" } + ["key7"]
        ]
        let probes = [
            "$class", "NSEntityName", "NSIsTransient", "NSPropertyName", "caf\u{E9}", "cafe\u{301}", "Key", "\u{212A}ey",
            "", "a", "ab", "ba", "abc", "acb", "ac", "key7", "key39", "key40", "NSFlagsKe", "NSFlagsKeys"
        ]
        for keys in cases {
            let values = keys.indices.map { Plist.integer($0) }
            let dictionary = PlistDictionary(keys: keys, values: values)
            for probe in probes {
                #expect(dictionary[probe] == Self.swiftAnswer(keys, values, probe), "keys \(keys), probe \(probe.debugDescription)")
            }
        }
    }

    @Test func equalityIgnoresOrder() {
        let a = PlistDictionary(keys: ["x", "y"], values: [.integer(1), .string("two")])
        let b = PlistDictionary(keys: ["y", "x"], values: [.string("two"), .integer(1)])
        let c = PlistDictionary(keys: ["x", "y"], values: [.integer(1), .string("three")])
        #expect(Plist.dictionary(a) == Plist.dictionary(b))
        #expect(Plist.dictionary(a) != Plist.dictionary(c))
    }
}
