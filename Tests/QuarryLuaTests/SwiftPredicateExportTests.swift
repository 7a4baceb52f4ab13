import Foundation
import QuarryModel
import QuarryModelFiles
import QuarryPredicates
import QuarryStore
import QuarryTestSupport
import Testing

/// `p:swift` against the real `#Predicate` macro (swift-foundation, issue #27 part 2):
/// every exported `#Predicate`, with the values it captures, is compiled by swiftc in one
/// file next to plain classes holding the same objects as the store, evaluated with
/// `Predicate.evaluate`, and must select the objects Quarry's fetch selects.
@Suite struct SwiftPredicateExportTests {
    struct Item {
        let title: String, qty: Int64, price: Double, made: Double?, uid: String?, flag: Bool, nick: String?
        let owner: Int?, weights: [Int64]
    }
    static let people: [(name: String, age: Int64?)] = [("Ann", 30), ("Bob", nil), ("Cy", 45)]
    static let items: [Item] = [
        Item(
            title: "alpha", qty: 1, price: 1.5, made: 1_700_000_000, uid: "0C4B6B0E-3E36-4D4B-9E5A-8D2C4C1F0A01", flag: true, nick: "al", owner: 0,
            weights: [1, 3]),
        Item(title: "beta", qty: 5, price: 2.5, made: nil, uid: nil, flag: false, nick: nil, owner: 1, weights: []),
        Item(
            title: "gamma\"#", qty: 7, price: 9.0, made: 1_600_000_000.5, uid: "5D2A1C9B-0000-4000-8000-00000000AB12", flag: false, nick: "gam",
            owner: nil, weights: [4]),
        Item(title: "delta", qty: 3, price: 0.5, made: 1_650_000_000, uid: nil, flag: true, nick: "d", owner: 2, weights: [2, 2, 5]),
        Item(title: "ab", qty: 2, price: 3.0, made: 1_700_000_000, uid: nil, flag: false, nick: "a\nb", owner: 0, weights: [1])
    ]

    /// Formats and their Lua arguments; each must give a `#Predicate`.
    static let cases: [(String, String)] = [
        ("title == %@", "'gamma\"#'"),
        ("qty > 3", ""),
        ("3 < qty", ""),
        ("owner.name == %@", "'Ann'"),
        ("owner.age > 30", ""),
        ("owner.age BETWEEN {20, 40}", ""),
        ("owner.age IN {30, 45}", ""),
        ("owner == nil", ""),
        ("owner != nil AND owner.age == nil", ""),
        ("made > %@", "date(1650000000)"),
        ("made == %@", "date(1700000000)"),
        ("made BETWEEN %@", "{date(1600000000), date(1690000000)}"),
        ("uid == %@", "'0c4b6b0e-3e36-4d4b-9e5a-8d2c4c1f0a01'"),
        ("uid != %@ AND uid != nil", "'0C4B6B0E-3E36-4D4B-9E5A-8D2C4C1F0A01'"),
        ("uid IN %@", "{'5D2A1C9B-0000-4000-8000-00000000AB12', '0C4B6B0E-3E36-4D4B-9E5A-8D2C4C1F0A01'}"),
        ("ANY tags.weight > 2", ""),
        ("ALL tags.weight > 1", ""),
        ("NONE tags.weight == 2", ""),
        ("SUBQUERY(tags, $t, $t.weight >= 2).@count >= 2", ""),
        ("SUBQUERY(tags, $t, ANY $t.item.tags.weight == 5).@count > 0", ""),
        ("tags.@count == 2", ""),
        ("owner.items.@count == 0", ""),
        ("SUBQUERY(owner.items, $i, $i.qty > 2).@count < 2", ""),
        ("SUBQUERY(owner.items, $i, SUBQUERY($i.tags, $t, $t.weight > 2).@count > 0).@count > 0", ""),
        ("title BEGINSWITH %@", "'a'"),
        ("title CONTAINS %@", "'mm'"),
        ("nick CONTAINS %@", "'a'"),
        ("nick BEGINSWITH %@", "'a\\nb'"),
        ("qty IN %@", "{1, 5}"),
        ("title IN {'ab', 'beta'}", ""),
        ("qty BETWEEN {2, 6}", ""),
        ("price >= 2.5 AND NOT (flag == YES)", ""),
        ("flag == NO OR uid == nil", ""),
        ("qty * 2 + 1 > 5", ""),
        ("qty > %@ AND tags.@count >= 1.0", "2.0"),
        ("qty IN {1.0, 5}", ""),
        ("ANY owner.items.qty > 6", ""),
        ("ALL owner.items.flag == YES", ""),
        ("nick == nil OR price < 1", ""),
        ("TRUEPREDICATE", ""),
        ("nick != 'al'", ""),
        ("NOT (nick == 'al')", ""),
        ("owner.name != 'Ann'", ""),
        ("NOT (owner.age > 40)", ""),
        ("made != nil AND NOT (made < %@)", "date(1650000000)"),
        ("NOT (nick BEGINSWITH 'a' OR qty > 6)", ""),
        ("NOT (owner.age IN {30} AND qty > 2)", ""),
        ("ALL owner.items.nick CONTAINS 'a'", ""),
        ("NONE tags.item.nick BEGINSWITH 'g'", ""),
        ("SUBQUERY(owner.items, $i, NOT ($i.nick CONTAINS 'l')).@count > 0", ""),
        ("title CONTAINS[cd] %@", "'ÁL'"),
        ("nick CONTAINS[cd] 'GÁ' OR title CONTAINS[cd] 'ETA'", "")
    ]

    @Test func everyExportedMacroCompilesAndSelectsWhatQuarrySelects() throws {
        let h = try Harness()
        h.run(Self.model)
        h.run(Self.luaObjects)
        var program = Self.swiftClasses + Self.swiftObjects
        var expected: [String] = []
        for (n, (format, arguments)) in Self.cases.enumerated() {
            let args = arguments.isEmpty ? "" : ", " + arguments
            let code = h.string("predicate([[\(format)]]\(args)):swift('Item')") ?? ""
            let lines = code.split(separator: "\n").map(String.init)
            #expect(lines.first?.hasPrefix("let predicate = NSPredicate(format: ") == true, "\(format): \(code)")
            guard lines.last?.hasPrefix("let query = #Predicate<Item> { ") == true else {
                Issue.record("\(format): no #Predicate: \(code)")
                continue
            }
            // Captures only before the closure: nothing is built inside it.
            #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("let ") }, "\(format): \(code)")
            // Foundation on Linux has no NSPredicate(format:): its line is checked against a
            // stand-in taking the same arguments.
            program +=
                "do {\n" + lines.joined(separator: "\n").replacingOccurrences(of: "= NSPredicate(format:", with: "= StandInNSPredicate(format:")
                + "\n    print(\"\(n):\" + items.filter { try! query.evaluate($0) }.map(\\.title).sorted().joined(separator: \"|\"))\n}\n"
            let titles =
                h.string(
                    "(function() local t = {} for _, o in ipairs(fetch{ 'Item', predicate = predicate([[\(format)]]\(args)), sort = { 'title' } }) do t[#t+1] = o.title end table.sort(t) return table.concat(t, '|') end)()"
                ) ?? ""
            expected.append("\(n):" + titles)
        }
        let printed = try SwiftCompiler.compileAndRun(program)
        #expect(printed == expected)
        // The cases are not vacuous: several select some but not all items.
        #expect(expected.filter { $0.split(separator: "|").count > 1 }.count > 10)
    }

    @Test(arguments: [
        ("title ENDSWITH 'a'", "ENDSWITH"),
        ("title ==[c] 'a'", "[c] or [d]"),
        ("title BEGINSWITH[cd] 'a'", "[c] or [d]"),
        ("title MATCHES 'a.*'", "MATCHES"),
        ("tags.@sum.weight > 1", "@sum"),
        ("price > qty", "between a Double and a Int64"),
        ("tags.@count > qty", "between a Int and a Int64"),
        ("qty > 1.5", "Int64 compared with 1.5: Swift compares an integer only with an integer"),
        ("tags.@count > 2.5", "Int compared with 2.5"),
        ("qty * 2 > 2.5", "Int64 compared with 2.5"),
        ("qty BETWEEN {0.5, 3}", "Int64 compared with 0.5"),
        ("owner.age > qty * 2 AND owner.age < owner.age", "may be nil"),
        // Compiles alone, but Swift 6.3's type checker gives up on the two together.
        ("NOT (owner.age IN {30} AND NOT (owner.age BETWEEN {40, 50}))", "Swift's type checker gives up")
    ])
    func refusesWithTheReason(_ format: String, _ reason: String) throws {
        let h = try Harness()
        h.run(Self.model)
        let code = h.string("predicate([[\(format)]]):swift('Item')") ?? ""
        #expect(code.contains("// #Predicate: not expressible (") && code.contains(reason), "\(format): \(code)")
    }

    /// An app passes a UUID to NSPredicate as an object, never as text; in `#Predicate` it is a
    /// capture built without `UUID(uuidString:)!`.
    @Test func uuidsAreArgumentsAndCaptures() throws {
        let h = try Harness()
        h.run(Self.model)
        let code = h.string("predicate('uid == %@', '0c4b6b0e-3e36-4d4b-9e5a-8d2c4c1f0a01'):swift('Item')") ?? ""
        let uuid = "UUID(uuid: (0x0C, 0x4B, 0x6B, 0x0E, 0x3E, 0x36, 0x4D, 0x4B, 0x9E, 0x5A, 0x8D, 0x2C, 0x4C, 0x1F, 0x0A, 0x01))"
        #expect(code.contains("NSPredicate(format: #\"uid == %@\"#, \(uuid) as NSUUID)"), "\(code)")
        #expect(code.contains("let uuid: UUID? = \(uuid)\n"), "\(code)")
        #expect(!code.contains("!"), "\(code)")
    }

    /// Names that are not plain identifiers stay distinct and parse: ``a`b`` and `ab`, a
    /// name with a line break, a keyword, operator characters alone, `a b` beside `a_b`
    /// (the model's names number the second `a_b`), `$0`; none is a raw identifier.
    @Test func oddNamesMakeDistinctIdentifiersThatCompile() throws {
        let names = ["a`b", "ab", "a%60b", "line\nbreak", "class", "+", "é t", "x\\y", "tab\there", "a b", "a_b", "$0", "_"]
        let entity = EntityDescription(name: "Odd", attributes: names.map { AttributeDescription(name: $0, type: .int64) })
        let model = SwiftNames(model: CoreDataModel(entities: [entity]))
        let identifiers = names.map { model.property($0, of: "Odd") }
        #expect(Set(identifiers).count == names.count, "\(identifiers)")
        #expect(identifiers.allSatisfy { !$0.hasPrefix("`") || $0 == "`class`" }, "\(identifiers)")
        var program = "import Foundation\nfinal class Odd {\n"
        for (n, id) in identifiers.enumerated() { program += "    var \(id): Int = \(n)\n" }
        program += "}\nlet odd = Odd()\n"
        for (n, name) in names.enumerated() {
            // Built as the parser would build `%K == n`, which takes only key paths it can read back.
            let comparison = Comparison(lhs: .keyPath(KeyPath([name], column: 1)), op: .equal, rhs: .constant(.integer(Int64(n)), column: 6))
            let bound = try BoundPredicate(QuarryPredicates.Predicate.comparison(comparison), entity: entity)
            let macro = try bound.swiftPredicateMacro(names: model)
            program += "print(try (\(macro.macro)).evaluate(odd))\n"
        }
        let printed = try SwiftCompiler.compileAndRun(program)
        #expect(printed == Array(repeating: "true", count: names.count))
    }

    static let model = #"""
        entity "Person" { name = "string", age = "int?" }
        entity "Tag" { weight = "int", item = { one = "Item", inverse = "tags" } }
        entity "Item" { title = "string", qty = "int", price = "double", made = "date?", uid = "uuid?", flag = "bool", nick = "string?",
                        owner = { one = "Person", inverse = "items" }, tags = { many = "Tag", inverse = "item" } }
        """#

    static var luaObjects: String {
        func lua(_ s: String) -> String {
            "\""
                + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(
                    of: "\n", with: "\\n") + "\""
        }
        var code = "local people = {}\n"
        for p in people { code += "people[#people+1] = Person:new{ name = \(lua(p.name))\(p.age.map { ", age = \($0)" } ?? "") }\n" }
        for i in items {
            code += "do local o = Item:new{ title = \(lua(i.title)), qty = \(i.qty), price = \(i.price), flag = \(i.flag)"
            if let made = i.made { code += ", made = date(\(made))" }
            if let uid = i.uid { code += ", uid = \(lua(uid))" }
            if let nick = i.nick { code += ", nick = \(lua(nick))" }
            if let owner = i.owner { code += ", owner = people[\(owner + 1)]" }
            code += " }\n"
            for w in i.weights { code += "  Tag:new{ weight = \(w), item = o }\n" }
            code += "end\n"
        }
        return code + "save()\n"
    }

    static let swiftClasses = """
        import Foundation
        final class Person { var name: String; var age: Int64?; var items: [Item] = []
            init(name: String, age: Int64?) { self.name = name; self.age = age } }
        final class Tag { var weight: Int64; var item: Item?; init(weight: Int64) { self.weight = weight } }
        final class Item { var title: String; var qty: Int64; var price: Double; var made: Date?; var uid: UUID?; var flag: Bool; var nick: String?
            var owner: Person?; var tags: [Tag] = []
            init(title: String, qty: Int64, price: Double, made: Date?, uid: UUID?, flag: Bool, nick: String?, owner: Person?) {
                self.title = title; self.qty = qty; self.price = price; self.made = made; self.uid = uid; self.flag = flag; self.nick = nick; self.owner = owner
            } }
        // SwiftData's models are Equatable (PersistentModel is Hashable): `owner == nil` needs it.
        extension Person: Equatable { static func == (a: Person, b: Person) -> Bool { a === b } }
        extension Item: Equatable { static func == (a: Item, b: Item) -> Bool { a === b } }
        extension Tag: Equatable { static func == (a: Tag, b: Tag) -> Bool { a === b } }
        // NSUUID is a CVarArg on Apple platforms (an NSObject), not on Linux: the stand-in takes Any.
        // `localizedStandardContains` (CONTAINS[cd]) is in Apple's #Predicate, not Linux's:
        // the macro's expansion is checked against a stand-in folding case and diacritics.
        extension PredicateExpressions {
            struct StandInLocalizedStandardContains<Root: PredicateExpression, Other: PredicateExpression>: StandardPredicateExpression
                where Root.Output: StringProtocol, Other.Output: StringProtocol, Root: Codable & Sendable, Other: Codable & Sendable {
                let root: Root, other: Other
                func evaluate(_ bindings: PredicateBindings) throws -> Bool {
                    try String(root.evaluate(bindings)).range(of: String(other.evaluate(bindings)), options: [.caseInsensitive, .diacriticInsensitive]) != nil
                }
            }
            static func build_localizedStandardContains<Root, Other>(_ root: Root, _ other: Other) -> StandInLocalizedStandardContains<Root, Other> {
                StandInLocalizedStandardContains(root: root, other: other)
            }
        }
        struct StandInNSPredicate { init(format: String, _ arguments: Any...) {} }

        """

    static var swiftObjects: String {
        var code =
            "let people = ["
            + people.map { "Person(name: \(swiftStringLiteral($0.name)), age: \($0.age.map(String.init) ?? "nil"))" }.joined(separator: ", ") + "]\n"
        code += "var items: [Item] = []\n"
        for i in items {
            code +=
                "do { let o = Item(title: \(swiftStringLiteral(i.title)), qty: \(i.qty), price: \(i.price), made: \(i.made.map { "Date(timeIntervalSince1970: \($0))" } ?? "nil"), "
            code +=
                "uid: \(i.uid.map { "UUID(uuidString: \"\($0)\")" } ?? "nil"), flag: \(i.flag), nick: \(i.nick.map(swiftStringLiteral) ?? "nil"), owner: \(i.owner.map { "people[\($0)]" } ?? "nil"))\n"
            code += "  o.owner?.items.append(o)\n"
            for w in i.weights { code += "  do { let t = Tag(weight: \(w)); t.item = o; o.tags.append(t) }\n" }
            code += "  items.append(o) }\n"
        }
        return code
    }
}
