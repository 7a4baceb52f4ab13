import QuarryPredicates
import QuarryStore
import QuarrySwiftInput
import QuarrySwiftReading
import Testing

/// Issue 48 item 1: Swift input is as bounded as the format strings it stands for. Long
/// but shallow input reads (a `||` chain, a long list); nesting past the format grammar's
/// 256 levels is refused in one line with its column, before swift-syntax recurses or
/// backtracks through it. None of these cases depends on time: each either reads or is
/// refused, where the old reader crashed the process or ran for minutes.
@Suite struct SwiftInputBoundsTests {
    static func refusal(_ swift: String, sort: Bool = false) -> PredicateError? {
        do {
            if sort { _ = try SwiftSortReader.read(swift) } else { _ = try SwiftPredicateReader.read(swift, captures: [:]) }
            return nil
        } catch let error as PredicateError {
            return error
        } catch {
            Issue.record("\(error)")
            return nil
        }
    }

    /// The column (from 1) at which the `n`th (from 1) occurrence of `needle` starts.
    static func column(of needle: String, occurrence n: Int, in text: String) -> Int {
        var rest = Substring(text)
        var offset = 0
        for _ in 1..<n {
            guard let r = rest.range(of: needle) else { return -1 }
            offset += rest.distance(from: rest.startIndex, to: r.upperBound)
            rest = rest[r.upperBound...]
        }
        guard let r = rest.range(of: needle) else { return -1 }
        return offset + rest.distance(from: rest.startIndex, to: r.lowerBound) + 1
    }

    static let tooDeep = "the predicate nests more than 256 levels deep"

    /// 30,000 terms crashed the reader (a fold as deep as the chain); it is one OR now.
    @Test func aLongOrChainReadsAsOneOr() throws {
        let swift = "#Predicate<Item> { $0.qty == 1" + String(repeating: " || $0.qty == 1", count: 29_999) + " }"
        let read = try SwiftPredicateReader.read(swift, captures: [:])
        guard case .or(let terms) = read.predicate else {
            Issue.record("not an OR")
            return
        }
        #expect(terms.count == 30_000)
        let and = "#Predicate<Item> { $0.qty == 1" + String(repeating: " && $0.qty == 1 || $0.flag", count: 5_000) + " }"
        guard case .or(let disjuncts) = try SwiftPredicateReader.read(and, captures: [:]).predicate else {
            Issue.record("not an OR")
            return
        }
        #expect(disjuncts.count == 5_001)
    }

    /// An arithmetic chain nests one level per operator, as in a format string, so 3,000
    /// terms are refused at the operator past the bound (the format grammar's too).
    @Test func aLongArithmeticChainIsRefusedAtTheBound() throws {
        let swift = "#Predicate<Item> { $0.qty" + String(repeating: " + 1", count: 2_999) + " > 0 }"
        let error = try #require(Self.refusal(swift))
        #expect(error.message == Self.tooDeep)
        #expect(error.column == Self.column(of: "+", occurrence: 256, in: swift))
        let format = "qty" + String(repeating: " + 1", count: 2_999) + " > 0"
        #expect(throws: PredicateError.self) { try PredicateParser.parse(format) }
        // Within the bound it reads, as the same format string parses.
        let shorter = "#Predicate<Item> { $0.qty" + String(repeating: " + 1", count: 200) + " > 0 }"
        #expect(
            try SwiftPredicateReader.read(shorter, captures: [:]).predicate.description
                == PredicateParser.parse("qty" + String(repeating: " + 1", count: 200) + " > 0").description)
    }

    /// A chain of conditionals folds one level per `?`: 5,000 are refused at the one past
    /// the bound, before any is read; within it they read.
    @Test func aLongConditionalChainIsRefusedAtTheBound() throws {
        let swift = "#Predicate<Item> { " + String(repeating: "$0.qty > 1 ? true : ", count: 5_000) + "false }"
        let error = try #require(Self.refusal(swift))
        #expect(error.message == Self.tooDeep)
        #expect(error.column == Self.column(of: "?", occurrence: 256, in: swift))
        let shorter = "#Predicate<Item> { " + String(repeating: "$0.qty > 1 ? true : ", count: 100) + "false }"
        #expect(try SwiftPredicateReader.read(shorter, captures: [:]).predicate != .constant(false))
    }

    /// A conditional writes its test twice, so conditionals nested in conditions double at
    /// each level: 35 levels (a few hundred characters) would be 2^35 nodes. Past six they
    /// are refused in one line at the conditional where the bound was met; five read.
    @Test func conditionalsNestedInConditionsAreBounded() throws {
        func nested(_ levels: Int) -> String {
            var e = "$0.qty > 1"
            for _ in 0..<levels { e = "(" + e + " ? $0.qty > 2 : $0.qty < 9)" }
            return "#Predicate<Item> { " + e + " }"
        }
        let error = try #require(Self.refusal(nested(35)))
        #expect(error.message.contains("conditionals (?:) nested in conditions more than 6 deep"), "\(error.message)")
        #expect(error.column != nil)
        #expect(try SwiftPredicateReader.read(nested(5), captures: [:]).predicate != .constant(false))
        // A chain in the branches stays linear and reads (aLongConditionalChainIsRefusedAtTheBound).
        #expect(Self.refusal("#Predicate<Item> { ($0.qty > 1 ? 1 : 3) == ($0.qty > 2 ? 2 : 3) }") == nil)
    }

    /// Each case: the text, and the `n`th occurrence of a needle where it is refused.
    static let deepCases: [String: (String, String, Int)] = [
        "parentheses": (
            "#Predicate<Item> { " + String(repeating: "(", count: 10_000) + "$0.qty > 1" + String(repeating: ")", count: 10_000) + " }", "(", 256
        ),
        "closures": (
            "#Predicate<Item> { " + String(repeating: "$0.t.contains { ", count: 300) + "$0.a" + String(repeating: " }", count: 300) + " }",
            ".t.contains", 86
        ),
        "members": ("#Predicate<Item> { $0" + String(repeating: ".a", count: 10_000) + " > 1 }", ".", 256),
        "unwraps": ("#Predicate<Item> { $0.a" + String(repeating: "!", count: 10_000) + " > 1 }", "!", 255),
        "generics": ("#Predicate<Item> { $0.qty < " + String(repeating: "a<", count: 10_000) + "b }", "<", 258),
        "keywords": ("#Predicate<Item> { " + String(repeating: "try ", count: 10_000) + "$0.a }", "try", 257)
    ]

    /// Nesting of every kind is refused past the 256th level, at its column: brackets,
    /// member chains, force unwraps, generic arguments, prefix keywords. The closure's `{`
    /// is a level; a closure passed to `$0.t.contains` stands three deep (two steps of
    /// its callee's chain, then its brace), so the 86th nested call is refused at its `.t`.
    /// The 256th `a<` is the 258th `<` (after `#Predicate<` and `qty <`).
    @Test(arguments: ["parentheses", "closures", "members", "unwraps", "generics", "keywords"])
    func deepNestingIsRefusedAtItsColumn(_ name: String) throws {
        let (text, needle, occurrence) = try #require(Self.deepCases[name])
        let error = try #require(Self.refusal(text), "\(name)")
        #expect(error.message == Self.tooDeep, "\(name)")
        #expect(error.column == Self.column(of: needle, occurrence: occurrence, in: text), "\(name): column \(error.column ?? 0)")
    }

    /// `#if` blocks (10,000 nested crashed swift-syntax's lookahead, 300 took seconds) have
    /// no place in a #Predicate: the first is refused before Swift parses them.
    @Test func conditionalCompilationIsRefusedAtOnce() throws {
        let swift =
            "let x = 1\n" + String(repeating: "#if a\n", count: 10_000) + String(repeating: "#endif\n", count: 10_000)
            + "#Predicate<Item> { $0.a > 1 }"
        let error = try #require(Self.refusal(swift))
        #expect(
            error.message == "#if has no place in a #Predicate or the lets before it" && error.column == 11, "\(error.message) \(error.column ?? 0)")
        #expect(
            try SwiftPredicateReader.read(##"#Predicate<Item> { $0.title == "#if" }"##, captures: [:]).predicate.description == ##"title == "#if""##)
    }

    /// swift-syntax recovers from `[a: a: a: ...]` in time growing with the square of its
    /// length (10,000 took minutes); Quarry reads no dictionary, so its first `:` is refused.
    @Test func dictionariesAreRefusedAtTheirColon() throws {
        let swift = "#Predicate<Item> { [" + String(repeating: "a: ", count: 10_000) + "1].contains($0.qty) }"
        let error = try #require(Self.refusal(swift))
        #expect(
            error.message == "a dictionary [key: value] has no #Predicate form Quarry reads" && error.column == 22,
            "\(error.message) \(error.column ?? 0)")
        // A ternary's colon and a label's are no dictionary's.
        #expect(Self.refusal("#Predicate<Item> { [$0.flag ? 1 : 2].contains($0.qty) }") == nil)
        #expect(try SwiftSortReader.read(#"[SortDescriptor(\.qty, order: .reverse)]"#).count == 1)
    }

    /// Many syntax errors: swift-syntax's diagnostics took time growing with the square of
    /// their number (8,000 empty operands, 43 s; 8,000 `. `, 162 s). Past a few, the first
    /// is described by Quarry, with its column; an empty element is refused before parsing.
    @Test func manySyntaxErrorsAreRefusedAtTheFirst() throws {
        for (swift, message, column) in [
            ("#Predicate<Item> { f(" + String(repeating: "a == , ", count: 8_000) + ") }", "Swift: expected an expression", 27),
            ("#Predicate<Item> { f(" + String(repeating: ". ", count: 8_000) + ") }", "Swift: expected an expression", 24),
            ("#Predicate<Item> { f(" + String(repeating: ", ", count: 8_000) + ") }", "expected a value before ','", 22)
        ] {
            let error = try #require(Self.refusal(swift))
            #expect(error.message == message && error.column == column, "\(error.message) \(error.column ?? 0)")
        }
    }

    /// 200 levels of parentheses read, as in a format string.
    @Test func nestingWithinTheBoundReads() throws {
        let swift = "#Predicate<Item> { " + String(repeating: "(", count: 200) + "$0.qty > 1" + String(repeating: ")", count: 200) + " }"
        #expect(try SwiftPredicateReader.read(swift, captures: [:]).predicate.description == "qty > 1")
    }

    /// Inside `[`, swift-syntax tries each nested `[` and `(` as a type twice: depth 24
    /// took seconds, 40 never ended. Quarry's lists nest at most `[Data([1])]` deep, so
    /// more than four levels there are refused at once, in a #Predicate and a sort key.
    @Test func bracketsInsideBracketsAreRefusedBeforeSwiftParsesThem() throws {
        for (swift, sort) in [
            ("#Predicate<Item> { " + String(repeating: "[", count: 40) + "1" + String(repeating: "]", count: 40) + ".contains($0.qty) }", false),
            ("#Predicate<Item> { " + String(repeating: "[(", count: 20) + "1" + String(repeating: ")]", count: 20) + ".contains($0.qty) }", false),
            (String(repeating: "[", count: 10_000) + #"\.qty"# + String(repeating: "]", count: 10_000), true),
            ("SortDescriptor(" + String(repeating: "[", count: 40) + #"\.qty"# + String(repeating: "]", count: 40) + ")", true)
        ] {
            let error = try #require(Self.refusal(swift, sort: sort))
            #expect(error.message.contains("nest more than 4 levels deep inside [ ]"), "\(error.message)")
            #expect(
                error.column == Self.column(of: "[", occurrence: 1, in: swift) + 4 || error.column == Self.column(of: "[(", occurrence: 3, in: swift))
            #expect(!error.message.contains("\n"))
        }
        let data = #"let blobs = [Data([1, 2]), Data([3])]\#n#Predicate<Item> { blobs.contains($0.blob) }"#
        #expect(try SwiftPredicateReader.read(data, captures: [:]).predicate.description.contains("blob IN"))
    }

    /// 60,000 integers took 5 s (a column found by counting from the start, per value).
    @Test func aLongListReads() throws {
        let values = (1...60_000).map(String.init).joined(separator: ", ")
        let read = try SwiftPredicateReader.read("#Predicate<Item> { [\(values)].contains($0.qty) }", captures: [:])
        guard case .comparison(let c) = read.predicate, case .aggregate(let list, _) = c.rhs else {
            Issue.record("not IN")
            return
        }
        #expect(list.count == 60_000)
        // Columns count characters, not bytes, past text that is not ASCII.
        let accented = #"#Predicate<Item> { $0.title == "éé" && $0.qty / $0.x > 1 }"#
        let error = try #require(Self.refusal(accented))
        #expect(error.column == Self.column(of: "/", occurrence: 1, in: accented) && error.column == 47)
    }

    @Test func aNameBoundTwiceIsRefused() throws {
        let swift = "let a = 1\nlet a = 99\n#Predicate<Item> { $0.qty > a }"
        let error = try #require(Self.refusal(swift))
        #expect(error.message.contains("'a' is bound twice (first at column 5)"), "\(error.message)")
        #expect(error.column == 15)
    }

    @Test func theTypeMustBeTheEntityOrAnAncestor() throws {
        let read = try SwiftPredicateReader.read("#Predicate<Car> { $0.qty > 1 }", captures: [:])
        try SwiftPredicateReader.check(read, entity: "Car", ancestors: [])
        try SwiftPredicateReader.check(read, entity: "SportCar", ancestors: ["Car"])
        try SwiftPredicateReader.check(SwiftPredicateReader.read("#Predicate { $0.qty > 1 }", captures: [:]), entity: "Item", ancestors: [])
        do {
            try SwiftPredicateReader.check(read, entity: "Item", ancestors: [])
            Issue.record("Car read for Item")
        } catch let error as PredicateError {
            #expect(error.message == "#Predicate<Car> tests Car objects, and this fetch is of 'Item'")
            #expect(error.column == 12)
        }
        #expect(throws: PredicateError.self) { try SwiftPredicateReader.check(read, entity: "Truck", ancestors: ["Vehicle"]) }
    }
}
