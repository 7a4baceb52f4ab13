import Foundation
import QuarryModel
import QuarryPredicates
import QuarryStore
import QuarryTestSupport
import Testing

/// Values written into exported Swift stay values: compiled by the real compiler, each
/// literal reads back as exactly the text it was made from, whatever quotes, `#`s,
/// backslashes, interpolations or line breaks the text holds (issue #27: a value with
/// `"#` once ended the raw literal and ran `exit(42)`).
struct SwiftLiteralTests {
    static let hostile = [
        "x\"#); exit(42) //",
        "plain",
        "quote \" and \"# and \"## and \\#(1) and \\(2) and \\",
        "line\nbreak and \r and \t and nul \u{0} and bell \u{7}",
        "separators \u{2028} \u{2029} \u{85} and é 字 🙂",
        "ends with a backslash \\",
        "\"\"\"triple quotes\"\"\"",
        ""
    ]

    @Test func literalsCompileToTheirOwnText() throws {
        var program = "let values: [String] = [\n"
        for text in Self.hostile {
            program += "    \(swiftStringLiteral(text)),\n    \(swiftRawStringLiteral(text)),\n"
        }
        program += "]\nfor v in values { print(Array(v.unicodeScalars).map { String($0.value) }.joined(separator: \",\")) }\n"
        let printed = try Self.compileAndRun(program)
        let expected = Self.hostile.flatMap { text in
            Array(repeating: text.unicodeScalars.map { String($0.value) }.joined(separator: ","), count: 2)
        }
        #expect(printed == expected)
    }

    @Test func anExportedPredicateKeepsTheValueInItsLiteral() throws {
        let entity = EntityDescription(name: "Item", attributes: [AttributeDescription(name: "title", type: .string)])
        let value = "x\"#); exit(42) //"
        let bound = try BoundPredicate(PredicateParser.parse("title == %@", arguments: PredicateArguments([.text(value)])), entity: entity)
        let code = bound.swiftCode()
        // One line per statement: no value breaks a line or ends a literal early.
        #expect(code.split(separator: "\n").count == 2)
        #expect(code.contains(swiftStringLiteral(value)))
        #expect(!code.contains("(format: #\"title == \"x\"#)"))
    }

    /// Compiles `source` with swiftc and runs it, returning its output lines. Fails (never
    /// skips) when swiftc is missing.
    static func compileAndRun(_ source: String) throws -> [String] {
        try SwiftCompiler.compileAndRun(source)
    }
}
