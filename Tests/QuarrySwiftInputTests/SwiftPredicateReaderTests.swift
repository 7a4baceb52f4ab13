import QuarryPredicates
import QuarryStore
import QuarrySwiftInput
import QuarrySwiftReading
import Testing

/// `#Predicate` read into Quarry's predicate tree: each case reads as the NSPredicate
/// format that means the same (both printed by Quarry's formatter), and what the macro
/// cannot say, or Quarry cannot read, is refused with its column.
@Suite struct SwiftPredicateReaderTests {
    static func read(_ swift: String, _ captures: [String: PredicateArgument] = [:]) throws -> String {
        try SwiftPredicateReader.read(swift, captures: captures).predicate.description
    }
    static func format(_ format: String, _ variables: [String: PredicateArgument] = [:]) throws -> String {
        try PredicateParser.parse(format, arguments: PredicateArguments(arguments: [], variables: variables)).description
    }

    static let same: [(String, String)] = [
        (#"#Predicate<Quake> { $0.magnitude > 5 && $0.place.contains("Alaska") }"#, #"magnitude > 5 AND place CONTAINS "Alaska""#),
        (#"#Predicate<Car> { car in car.year >= 2000 || !(car.name == "x") }"#, #"year >= 2000 OR NOT name == "x""#),
        (#"#Predicate<Car> { $0.owner?.name == "Ann" }"#, #"owner.name == "Ann""#),
        (#"#Predicate<Car> { $0.owner == nil }"#, "owner == nil"),
        (#"#Predicate<Car> { ($0.owner?.age).flatMap { $0 > 30 } ?? false }"#, "NOT owner.age == nil AND owner.age > 30"),
        (#"#Predicate<Car> { ($0.owner?.age).flatMap { $0 > 30 } ?? true }"#, "owner.age == nil OR owner.age > 30"),
        (#"#Predicate<Car> { $0.owner?.name.starts(with: "A") ?? false }"#, #"NOT owner == nil AND owner.name BEGINSWITH "A""#),
        (#"#Predicate<Item> { $0.tags.contains(where: { t in t.weight > 2 }) }"#, "SUBQUERY(tags, $v1, $v1.weight > 2).@count > 0"),
        (#"#Predicate<Item> { $0.tags.contains { $0.weight > 2 } }"#, "SUBQUERY(tags, $v1, $v1.weight > 2).@count > 0"),
        (#"#Predicate<Item> { $0.tags.allSatisfy { $0.weight > 1 } }"#, "SUBQUERY(tags, $v1, NOT $v1.weight > 1).@count == 0"),
        (#"#Predicate<Item> { $0.tags.filter { $0.weight >= 2 }.count >= 2 }"#, "SUBQUERY(tags, $v1, $v1.weight >= 2).@count >= 2"),
        (#"#Predicate<Item> { $0.tags.count == 2 }"#, "tags.@count == 2"),
        // A test that gives a Bool, compared with a Bool literal, is the test or its negation.
        (#"#Predicate<Item> { $0.title.isEmpty == false }"#, "NOT title.@count == 0"),
        (#"#Predicate<Item> { ($0.owner?.name ?? "").isEmpty == false }"#, "NOT TERNARY(owner.name != nil, owner.name.length, 0) == 0"),
        (#"#Predicate<Item> { $0.title.contains("a") == true }"#, #"title CONTAINS "a""#),
        (#"#Predicate<Item> { true != $0.tags.isEmpty }"#, "NOT tags.@count == 0"),
        // `.count` of the object itself is its attribute named count.
        (#"#Predicate<Part> { part in part.count > 3 && part.tags.count == 2 }"#, "count > 3 AND tags.@count == 2"),
        (#"#Predicate<Item> { $0.tags.contains { $0.count > 2 } }"#, "SUBQUERY(tags, $v1, $v1.count > 2).@count > 0"),
        (#"#Predicate<Item> { $0.tags.isEmpty }"#, "tags.@count == 0"),
        (#"#Predicate<Item> { ($0.owner?.items.count ?? 0) == 0 }"#, "owner.items.@count == 0"),
        (#"#Predicate<Item> { [1, 5].contains($0.qty) }"#, "qty IN {1, 5}"),
        (#"#Predicate<Item> { (2...6).contains($0.qty) }"#, "qty BETWEEN {2, 6}"),
        (#"#Predicate<Item> { (2..<6).contains($0.qty) }"#, "qty >= 2 AND qty < 6"),
        (#"#Predicate<Item> { $0.title.localizedStandardContains("é") }"#, #"title CONTAINS[cd] "é""#),
        (#"#Predicate<Item> { $0.title.caseInsensitiveCompare("ab") == .orderedSame }"#, #"title ==[c] "ab""#),
        (#"#Predicate<Item> { $0.qty * 2 + 1 > 5 && $0.price >= -2.5 }"#, "qty * 2 + 1 > 5 AND price >= -2.5"),
        (#"#Predicate<Item> { $0.flag }"#, "flag == YES"),
        (#"#Predicate<Item> { !$0.flag || true }"#, "NOT flag == YES OR TRUEPREDICATE"),
        (##"#Predicate<Item> { $0.`default` == "a\"#b\n" }"##, ##"default == "a\"#b\n""##),
        (#"#Predicate<Item> { item in return item.owner!.name != "Bob" }"#, #"owner.name != "Bob""#),
        (#"#Predicate<Item> { $0.owner.flatMap { $0.year } == 2000 }"#, "owner.year == 2000"),
        (
            #"#Predicate<Item> { ($0.owner.flatMap { $0.name })?.starts(with: "a") ?? false }"#,
            #"NOT owner.name == nil AND owner.name BEGINSWITH "a""#
        ),
        // Issue #79: constructs swift-foundation's own tests use.
        (#"#Predicate<Item> { ($0.flag ? $0.qty : 1) + 1 > 2 }"#, "TERNARY(flag == YES, qty, 1) + 1 > 2"),
        ("let url = URL(string: \"http://apple.com\")!\n#Predicate<Item> { $0.link == url }", #"link == "http://apple.com""#),
        // A number given its type, as an app's let for a Float attribute writes it: the
        // Float the app holds (trial 19: `let south = Float(22.5)` was refused).
        ("let south = Float(0.1)\n#Predicate<Item> { $0.weight < south }", "weight < 0.10000000149011612"),
        ("let south: Float = 0.1\n#Predicate<Item> { $0.weight < south }", "weight < 0.10000000149011612"),
        ("let n = Int64(3)\n#Predicate<Item> { $0.qty > n }", "qty > 3"),
        ("let d = Double(2)\n#Predicate<Item> { $0.weight >= d }", "weight >= 2.0"),
        (#"#Predicate<Item> { ($0.title ?? "").isEmpty }"#, "TERNARY(title != nil, title.length, 0) == 0"),
        (#"#Predicate<Item> { ($0.qty ?? 7) % 2 == 1 }"#, "modulus:by:(TERNARY(qty != nil, qty, 7), 2) == 1"),
        (#"#Predicate<Item> { ($0.flag && true) == false }"#, "NOT (flag == YES AND TRUEPREDICATE)"),
        (#"#Predicate<Item> { $0.title.contains("") }"#, "title != nil"),
        (#"#Predicate<Item> { $0.title.contains($0.name) }"#, #"title != nil AND name == "" OR title CONTAINS name"#),
        (#"#Predicate<Item> { $0.title.isEmpty }"#, "title.@count == 0"),
        (#"#Predicate<Item> { (2...).contains($0.qty) }"#, "qty >= 2"),
        (#"#Predicate<Item> { (...6).contains($0.qty) }"#, "qty <= 6"),
        (#"#Predicate<Item> { (..<6).contains($0.qty) }"#, "qty < 6"),
        ("let r = 2 ..< 6\n#Predicate<Item> { r.contains($0.qty) }", "qty >= 2 AND qty < 6"),
        ("let r: ClosedRange<Int> = 2 ... 6\nlet query = #Predicate<Item> { r.contains($0.qty) }", "qty BETWEEN {2, 6}"),
        ("let r = 2...\n#Predicate<Item> { r.contains($0.qty) }", "qty >= 2"),
        (#"#Predicate<Item> { ($0.qty ... $0.max).contains(4) }"#, "4 >= qty AND 4 <= max"),
        ("let same = ComparisonResult.orderedSame\n#Predicate<Item> { $0.title.caseInsensitiveCompare(\"ab\") == same }", #"title ==[c] "ab""#),
        (#"#Predicate<Item> { $0.tags.filter { $0.weight > 2 }.isEmpty }"#, "NOT SUBQUERY(tags, $v1, $v1.weight > 2).@count > 0"),
        (#"#Predicate<Item> { item in !item.tags.filter { $0.weight == item.qty }.isEmpty }"#, "NOT NOT ANY tags.weight == qty"),
        (#"#Predicate<Item> { item in item.tags.filter { $0.weight == item.qty }.count > 0 }"#, "ANY tags.weight == qty"),
        (#"#Predicate<Item> { item in item.tags.filter { $0.weight == item.qty }.count == 0 }"#, "NOT ANY tags.weight == qty"),
        (#"#Predicate<Item> { $0.flag ? $0.qty > 1 : $0.qty < 0 }"#, "(flag == YES AND qty > 1) OR (NOT flag == YES AND qty < 0)"),
        (#"#Predicate<Item> { ($0.flag ? $0.qty : $0.price) > 2 }"#, "(flag == YES AND qty > 2) OR (NOT flag == YES AND price > 2)"),
        (#"#Predicate<Item> { $0.qty % 3 == 1 }"#, "modulus:by:(qty, 3) == 1"),
        (#"#Predicate<Item> { $0.price / 2.5 <= 3.0 }"#, "price / 2.5 <= 3.0"),
        (#"#Predicate<Item> { $0.qty / 2 > 1 }"#, "quotient:by:(qty, 2) > 1"),
        // Foundation finds no empty string: an empty search selects nothing, typed or captured.
        (#"#Predicate<Item> { $0.title.localizedStandardContains("") }"#, "FALSEPREDICATE"),
        ("let q = \"\"\n#Predicate<Item> { $0.title.localizedStandardContains(q) || $0.qty > 3 }", "FALSEPREDICATE OR qty > 3"),
        // A #Predicate defined before the one read, evaluated by it: read in its place.
        ("let a = #Predicate<Item> { $0.qty > 1 }\nlet b = #Predicate<Item> { a.evaluate($0) && $0.flag }", "qty > 1 AND flag == YES"),
        (
            "let a = #Predicate<Item> { $0.qty > 1 }\nlet b = #Predicate<Item> { item in !a.evaluate(item) }\nlet c = #Predicate<Item> { b.evaluate($0) }",
            "NOT qty > 1"
        ),
        // A struct made from constants by its memberwise initializer: its fields are those constants.
        ("let s = Limits(low: 2, names: [1, 2, 3])\n#Predicate<Item> { $0.qty > s.low }", "qty > 2"),
        ("let s = Limits(low: 2, names: [1, 2, 3])\n#Predicate<Item> { $0.flag == s.names.contains([2, 3]) }", "flag == YES"),
        ("let s = Limits(low: 2, names: [1, 2, 3])\n#Predicate<Item> { s.names.contains([1, 3]) }", "FALSEPREDICATE"),
        // The object compared with itself.
        ("#Predicate<Item> { $0 == $0 }", "TRUEPREDICATE"),
        ("#Predicate<Item> { item in item != item || item.flag }", "FALSEPREDICATE OR flag == YES"),
        // A string's count, in characters as Swift counts (bound as one: `StringCountTests`).
        (#"#Predicate<Item> { $0.title.count > 3 }"#, "title.@count > 3")
    ]

    @Test(arguments: same) func readsAsTheFormatThatMeansTheSame(_ c: (String, String)) throws {
        #expect(try Self.read(c.0) == Self.format(c.1), "\(c.0)")
    }

    @Test func capturedNamesTakeTheGivenValues() throws {
        let read = try Self.read(
            #"#Predicate<Quake> { $0.magnitude > minimum && names.contains($0.place) }"#,
            ["minimum": .value(.real(4.5)), "names": .list([.text("a"), .text("b")])])
        #expect(read == (try Self.format("magnitude > $M AND place IN $N", ["M": .value(.real(4.5)), "N": .list([.text("a"), .text("b")])])))
    }

    static let refused: [(String, String, Int)] = [
        (#"#Predicate<Item> { $0.qty / $0.price > 1 }"#, "'/' is read dividing by a nonzero constant", 27),
        (
            #"#Predicate<Item> { $0.title.localizedCompare("a") == .orderedSame }"#,
            "localizedCompare(_:) == .orderedSame is the user's locale's collation", 29
        ),
        (#"#Predicate<Item> { $0.title.localizedCompare("a") == .orderedAscending }"#, "localizedCompare(_:) orders by the user's locale", 29),
        (#"#Predicate<Item> { $0.title.caseInsensitiveCompare("a") == .orderedAscending }"#, "against .orderedAscending", 60),
        (#"#Predicate<Item> { $0.tags.contains { $0 == 2 } }"#, "'$0' alone is the member itself", 39),
        (#"#Predicate<Item, Int> { $0.qty == $1 }"#, "#Predicate<Item, Int> takes 2 inputs", 11),
        ("let a = #Predicate<Item> { $0.qty > 1 }\nlet b = #Predicate<Item> { a.evaluate($0) }\nlet c = 1", "nothing may follow the #Predicate", 85),
        (
            "let a = #Predicate<Tag> { $0.weight > 1 }\n#Predicate<Item> { a.evaluate($0) }",
            "'a' tests Tag objects, and this #Predicate tests Item objects", 62
        ),
        (
            "let a = #Predicate<Tag> { $0.weight > 1 }\n#Predicate<Item> { $0.tags.contains { a.evaluate($0) } }",
            "a.evaluate(...) is read of the closure's own object", 81
        ),
        ("let s = Limits(low: 2)\n#Predicate<Item> { $0.qty > s.high }", "'s' has no field 'high' in its initializer (low)", 54),
        ("let s = obj.k\n#Predicate<Item> { $0.key == s }", "'obj.k' is a value of the app's", 9),
        ("let x = Int16(70000)\n#Predicate<Item> { $0.qty > x }", "Int16(...) is read with a number literal in Int16's range", 9),
        (#"#Predicate<Item> { $0.tags.max() == 2 }"#, "max(...) has no #Predicate form Quarry reads", 28),
        (#"#Predicate<Item> { $0.title.hasSuffix("a") }"#, "hasSuffix(...) has no #Predicate form", 29),
        (#"#Predicate<Item> { $0.when > Date() }"#, "capture its value", 30),
        (#"#Predicate<Item> { $0.qty > limit }"#, "no value for 'limit'", 29),
        (#"#Predicate<Item> { $0.title == "\(x)" }"#, "interpolation", 32),
        (#"#Predicate<Item> { $0 == nil }"#, "'$0' alone is the object itself", 20),
        (#"#Predicate<Item> { $0.qty > 1 "#, "Swift: expected '}'", 31),
        (#"#Predicate<Item> { item in let x = 1; return x > 0 }"#, "one expression", 18),
        (#"#Predicate<Item> { item in item.tags.contains { $0.weight > item.qty && $0.weight > 1 } }"#, "a key of an outer object", 61),
        (#"#Predicate<Item> { item in item.tags.filter { $0.weight > item.qty }.count > 1 }"#, "a key of an outer object", 59),
        (#"#Predicate<Item> { item in item.tags.contains { $0.weight > item.qty + $0.weight } }"#, "the member's keys on the other", 49),
        (#"#Predicate<Item> { $0.qty as Int > 1 }"#, "in '$0.qty as Int > 1' has no #Predicate form Quarry reads", 27),
        // Swift's flatMap is nil where the owner is; these values would not be in Quarry.
        (#"#Predicate<Item> { $0.owner.flatMap { $0.items.count } == 0 }"#, "read only as a key of it", 39),
        (#"#Predicate<Item> { $0.owner.flatMap { _ in 5 } == 5 }"#, "read only as a key of it", 44),
        (#"#Predicate<Item> { item in item.owner.flatMap { _ in item.qty } == 5 }"#, "read only as a key of it", 54)
    ]

    @Test(arguments: refused) func refusedInOneLineWithItsColumn(_ c: (String, String, Int)) {
        do {
            let read = try Self.read(c.0)
            Issue.record("\(c.0) was read as \(read)")
        } catch let error as PredicateError {
            #expect(error.message.contains(c.1), "\(error.message)")
            #expect(error.column == c.2, "\(c.0): column \(error.column.map(String.init) ?? "none"), expected \(c.2)")
            #expect(!error.message.contains("\n"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func tellsSwiftFromFormatStrings() {
        #expect(SwiftPredicateReader.isSwift("#Predicate<Quake> { $0.x > 1 }"))
        #expect(SwiftPredicateReader.isSwift("  #Predicate { $0.x > 1 }"))
        #expect(!SwiftPredicateReader.isSwift("#Predicate < 5"), "a key named Predicate, escaped")
        #expect(!SwiftPredicateReader.isSwift("#Predicate == 1"))
        #expect(!SwiftPredicateReader.isSwift("magnitude > 5"))
        #expect(SwiftPredicateReader.isSwift("#Predicate<Item, Int> { $0.x > $1 }"), "read, and refused naming its two inputs")
    }

    /// Definitions that each evaluate the one before twice would be read 2^n times: the
    /// reader stops at its bound with one line, where 30 of them would never end.
    @Test func aChainOfDefinitionsEvaluatingTwiceIsBounded() {
        var text = "let p0 = #Predicate<Item> { $0.qty > 1 }\n"
        for i in 1..<30 { text += "let p\(i) = #Predicate<Item> { p\(i - 1).evaluate($0) && p\(i - 1).evaluate($0) }\n" }
        text += "#Predicate<Item> { p29.evaluate($0) }"
        do {
            let read = try Self.read(text)
            Issue.record("read as \(read)")
        } catch let error as PredicateError {
            #expect(error.message.contains("more than 256 times"), "\(error.message)")
            #expect(!error.message.contains("\n"))
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func sortKeysAsSwift() throws {
        // Written with no comparator: Foundation's default, `.localizedStandard` for a String.
        #expect(
            try SwiftSortReader.read(#"SortDescriptor(\.time, order: .reverse)"#)
                == [.init(key: "time", ascending: false, comparator: SwiftSortReader.Key.stringDefault)])
        #expect(try SwiftSortReader.read(#"SortDescriptor(\.time, comparator: .lexical)"#) == [.init(key: "time", ascending: true, comparator: nil)])
        #expect(
            try SwiftSortReader.read(#"[SortDescriptor(\Quake.place, comparator: .localizedStandard), \.owner?.name]"#)
                == [.init(key: "place", ascending: true, comparator: "localizedStandard"), .init(key: "owner.name", ascending: true, comparator: nil)]
        )
        #expect(
            try SwiftSortReader.read(#"SortDescriptor(\.place, comparator: .localized)"#) == [
                .init(key: "place", ascending: true, comparator: "localized")
            ])
        #expect(SwiftSortReader.isSwift(#"\.time"#) && !SwiftSortReader.isSwift("-time"))
        #expect(throws: PredicateError.self) { try SwiftSortReader.read(#"SortDescriptor(\.time, order: .sideways)"#) }
    }
}
