import Foundation
import QuarryPredicates
import QuarryTestSupport
import Testing

/// `r:swift(style)` (issue #27 part 1): whole requests as the Swift an app writes. Every
/// style's code is compiled with swiftc in one file, with Foundation's real `#Predicate`
/// and `SortDescriptor` and stand-ins for what Linux lacks (SwiftUI's property wrappers,
/// SwiftData's `Query`/`FetchDescriptor`/`ModelContext`, Core Data's `NSFetchRequest`
/// family). The stand-in `ModelContext` fetches for real (filter with `evaluate`, sort
/// with the descriptors, offset, limit), so the descriptor style must give Quarry's rows
/// in Quarry's order. What a style cannot say is named on a `// not expressed:` line.
@Suite struct SwiftRequestExportTests {
    static let model = #"""
        entity "Person" { name = "string" }
        entity "Quake" { place = "string", magnitude = "double", time = "date", day = "string", tsunami = "bool", code = "uuid?",
                         owner = { one = "Person", inverse = "quakes" } }
        """#
    static let quakes: [(place: String, magnitude: Double, time: Double, day: String, tsunami: Bool, owner: Int?)] = [
        ("Alaska", 5.5, 1_700_000_100, "d1", false, 0), ("Chile", 6.1, 1_700_000_300, "d2", true, 1),
        ("alaska bay", 7.0, 1_700_000_200, "d1", true, nil), ("Japan", 4.0, 1_700_000_400, "d3", false, 0),
        ("Peru", 5.2, 1_700_000_500, "d2", false, 1), ("Fiji", 6.6, 1_600_000_000, "d3", true, nil),
        ("Banda", 5.9, 1_700_000_600, "d1", false, 0), ("Tonga", 5.1, 1_700_000_700, "d2", true, 1)
    ]

    /// The requests, as Lua expressions, each with the styles whose code is compiled.
    static let requests: [(lua: String, styles: [String])] = [
        (
            #"fetch{ "Quake", predicate = "magnitude > %@ AND time > %@", args = { 5, date(1650000000) }, sort = { "-time", "place" }, limit = 3, offset = 1 }"#,
            ["fetchrequest", "query", "descriptor", "nsfetchrequest", ""]
        ),
        (
            #"fetch{ "Quake", predicate = "place CONTAINS %@ OR tsunami == YES", args = { "a" }, sort = { "-magnitude" }, section = "day" }"#,
            ["fetchrequest", "sectioned", "query", "descriptor", "nsfetchrequest"]
        ),
        (
            #"fetch{ "Quake", predicate = "owner.name == %@ AND code == nil", args = { "Ann" }, sort = { "owner.name", { "place", compare = "caseInsensitive" }, "tsunami" }, batch = 50, prefetch = { "owner" } }"#,
            ["fetchrequest", "query", "descriptor", "nsfetchrequest"]
        ),
        (
            #"fetch{ "Quake", result = "dictionaries", properties = { "day", "count(*)", "avg(magnitude) AS mean", "max(time)", "day AS d" }, group = { "day" }, having = "count > 1", sort = { "-mean" } }"#,
            ["nsfetchrequest"]
        ),
        (
            #"fetch{ "Quake", predicate = "owner != nil AND NOT (place IN %@) AND ANY owner.quakes.tsunami == YES", args = { { "Peru" } }, sort = { "owner.name", "-magnitude" } }"#,
            ["descriptor", "query"]
        )
    ]

    @Test func everyStyleCompilesAndTheDescriptorFetchesQuarrysRows() throws {
        let h = try Harness()
        h.run(Self.model)
        h.run(Self.luaObjects)
        var program = Self.standIns + Self.swiftClasses + Self.swiftObjects
        var expected: [String] = []
        for (n, request) in Self.requests.enumerated() {
            h.run("r\(n) = \(request.lua)")
            for style in request.styles {
                let code = h.string("swift(r\(n)\(style.isEmpty ? "" : ", '\(style)'"))") ?? ""
                let compiled = code.replacingOccurrences(of: "NSPredicate(format:", with: "StandInNSPredicate(format:")
                    .replacingOccurrences(of: "#selector(", with: "standInSelector(")
                    .replacingOccurrences(of: "NSSortDescriptor(", with: "StandInNSSortDescriptor(")
                    .replacingOccurrences(of: "NSExpression(", with: "StandInNSExpression(")
                    .replacingOccurrences(of: "NSExpression.", with: "StandInNSExpression.")
                let name = "R\(n)_\(style.isEmpty ? "default" : style)"
                switch style {
                case "descriptor" where !code.contains("// not expressed"):
                    // Every part said: the stand-in's fetch must give Quarry's rows, in order.
                    program += "func \(name)(modelContext: ModelContext) throws -> [Quake] {\n\(compiled)\nreturn quakes\n}\n"
                    program += "print(\"\(n):\" + (try \(name)(modelContext: modelContext)).map(\\.place).joined(separator: \"|\"))\n"
                    let places =
                        h.string("(function() local t = {} for o in r\(n):objects() do t[#t+1] = o.place end return table.concat(t, '|') end)()")
                        ?? ""
                    expected.append("\(n):" + places)
                case "descriptor":
                    program += "func \(name)(modelContext: ModelContext) throws {\n\(compiled)\n_ = quakes\n}\n"
                case "nsfetchrequest":
                    program += "func \(name)(context: NSManagedObjectContext) throws {\n\(compiled)\n}\n"
                default:
                    program += "struct \(name) {\n\(compiled)\n}\n"
                }
            }
        }
        let printed = try SwiftCompiler.compileAndRun(program)
        #expect(printed == expected)
        #expect(expected.count == 2 && expected.allSatisfy { $0.contains("|") }, "\(expected)")
    }

    @Test func eachStyleSaysItsPartsOrNamesThem() throws {
        let h = try Harness()
        h.run(Self.model)
        h.run(Self.luaObjects)
        for (n, request) in Self.requests.enumerated() { h.run("r\(n) = \(request.lua)") }
        func code(_ n: Int, _ style: String) -> String { h.string("r\(n):swift('\(style)')") ?? "" }
        func swift(_ n: Int, _ style: String) -> String { h.string("swift(r\(n), '\(style)')") ?? "" }
        // Limits: named where @FetchRequest has none, said by the others.
        #expect(code(0, "fetchrequest").hasPrefix("// not expressed: limit 3: the fetchrequest style has no fetch limit"))
        #expect(code(0, "fetchrequest").contains("// not expressed: offset 1: "))
        #expect(
            code(0, "fetchrequest").contains(
                ##"@FetchRequest(sortDescriptors: [SortDescriptor(\Quake.time, order: .reverse), SortDescriptor(\Quake.place, comparator: .lexical)], predicate: NSPredicate(format: #"magnitude > 5 AND time > %@"#, Date(timeIntervalSinceReferenceDate: 671692800) /* 2022-04-15T05:20:00Z */ as NSDate), animation: .default)"##
            ))
        #expect(code(0, "fetchrequest").hasSuffix("private var quakes: FetchedResults<Quake>"))
        #expect(
            code(0, "query").contains(
                "descriptor.fetchLimit = 3\n    descriptor.fetchOffset = 1\n    _quakes = Query(descriptor, animation: .default)"))
        #expect(!code(0, "query").contains("not expressed"))
        #expect(code(0, "nsfetchrequest").contains("request.fetchLimit = 3\nrequest.fetchOffset = 1\nrequest.fetchBatchSize = 200"))
        // Quarry's own store: SwiftData's @Query.
        #expect(code(0, "query") == h.string("r0:swift()"))
        // Sections: the key leads the sort; styles without sections name them.
        #expect(
            code(1, "sectioned").contains(
                #"@SectionedFetchRequest<String, Quake>(sectionIdentifier: \Quake.day, sortDescriptors: [SortDescriptor(\Quake.day, comparator: .lexical), SortDescriptor(\Quake.magnitude, order: .reverse)]"#
            ))
        #expect(code(1, "sectioned").hasSuffix("private var quakes: SectionedFetchResults<String, Quake>"))
        #expect(code(1, "fetchrequest").hasPrefix("// not expressed: section = 'day': @FetchRequest has no sections"))
        #expect(code(1, "query").hasPrefix("// not expressed: section = 'day': SwiftData has no sections"))
        #expect(code(1, "nsfetchrequest").contains(#"sectionNameKeyPath: "day""#))
        #expect(code(0, "sectioned").contains("// not expressed: sections: the results have no section key"))
        // What SortDescriptor cannot sort by is named; NSSortDescriptor says it.
        #expect(code(2, "query").contains("// not expressed: sort by 'place' case-insensitively: SortDescriptor has no case-insensitive comparator"))
        #expect(code(2, "query").contains("// not expressed: sort by 'tsunami': SortDescriptor needs a Comparable value"))
        #expect(code(2, "query").contains(#"SortDescriptor(\Quake.owner?.name, comparator: .lexical)"#))
        #expect(code(2, "fetchrequest").contains("// not expressed: batch 50: "))
        #expect(code(2, "fetchrequest").contains("// not expressed: prefetch: "))
        #expect(code(2, "descriptor").contains(#"descriptor.relationshipKeyPathsForPrefetching = [\Quake.owner]"#))
        // A descriptor nothing is set on after it is a let (a var draws Swift's warning).
        #expect(code(1, "descriptor").contains("let descriptor = FetchDescriptor<Quake>("), "\(code(1, "descriptor"))")
        #expect(code(2, "descriptor").contains("var descriptor = FetchDescriptor<Quake>("))
        #expect(
            code(2, "nsfetchrequest").contains(
                #"NSSortDescriptor(key: "place", ascending: true, selector: #selector(NSString.caseInsensitiveCompare(_:)))"#))
        #expect(code(2, "nsfetchrequest").contains("request.fetchBatchSize = 50"))
        // Dictionaries: NSFetchRequest's, and named elsewhere.
        let rows = swift(3, "nsfetchrequest")
        #expect(rows == h.string("swift(r3)"))
        #expect(rows.contains("request.resultType = .dictionaryResultType"))
        #expect(
            rows.contains(#"request.propertiesToGroupBy = ["day"]"#)
                && rows.contains(##"request.havingPredicate = NSPredicate(format: #"count > 1"#)"##))
        #expect(rows.contains(#"property2.name = "mean""#) && rows.contains("property2.expressionResultType = .doubleAttributeType"))
        #expect(rows.hasPrefix("// not expressed: property 'day AS d': "))
        #expect(swift(3, "query").hasPrefix("// not expressed: dictionaries: the query style fetches objects"))
        #expect(
            h.error("r0:swift('swiftui')").contains(
                "style must be 'fetchrequest', 'sectioned', 'query', 'descriptor', 'nsfetchrequest', got 'swiftui'"))
        #expect(h.error("swift({})").contains("expected results, or the rows of fetch{ ..., result = \"dictionaries\" }"))
    }

    /// Names no plain Swift identifier spells (issue 48 item 7): the `query` style with a
    /// limit wrote `` _`cafés` = Query(...) ``, which swiftc refuses, and a key `$0` was
    /// `` `$0` ``, which no Swift declares. Every name is now an identifier, the same in
    /// the request and in the class Quarry writes for the entity (which keeps the store's
    /// name in `originalName:`); the code compiles and the descriptor fetches Quarry's rows.
    @Test func namesThatAreNotIdentifiersCompile() throws {
        let h = try Harness()
        h.run(
            #"""
            local C = entity "Café" { ["$0"] = "int", ["first name"] = "string", first_name = "string?" }
            for i = 1, 6 do C:new{ ["$0"] = i, ["first name"] = "n" .. (7 - i), first_name = "f" .. i } end
            save()
            r = fetch{ "Café", predicate = "%K > %@ AND %K BEGINSWITH %@", args = { "$0", 1, "first name", "n" }, sort = { "first name" }, limit = 3 }
            """#)
        let model = h.string(#"entities()[1]:swift()"#) ?? ""
        #expect(
            model.contains(#"@Attribute(originalName: "$0") var _0: Int64"#)
                && model.contains(#"@Attribute(originalName: "first name") var first_name_2: String"#)
                && model.contains("var first_name: String?"), "\(model)")
        var program =
            Self.standIns + """
                final class Café { var _0: Int64; var first_name_2: String; var first_name: String?
                    init(_0: Int64, first_name_2: String, first_name: String?) { self._0 = _0; self.first_name_2 = first_name_2; self.first_name = first_name } }
                extension Café: Equatable { static func == (a: Café, b: Café) -> Bool { a === b } }
                let modelContext = ModelContext()
                for i in 1...6 { modelContext.objects.append(Café(_0: Int64(i), first_name_2: "n\\(7 - i)", first_name: "f\\(i)")) }

                """
        let query = h.string("r:swift('query')") ?? ""
        #expect(query.contains("_cafés = Query(descriptor, animation: .default)") && query.contains("descriptor.fetchLimit = 3"), "\(query)")
        #expect(!query.contains("`") && !query.contains("not expressed"), "\(query)")
        let descriptor = h.string("r:swift('descriptor')") ?? ""
        #expect(descriptor.contains(#"SortDescriptor(\Café.first_name_2, comparator: .lexical)"#) && !descriptor.contains("`"), "\(descriptor)")
        program += "struct CafésView {\n\(query)\n}\n"
        program += "func fetched(modelContext: ModelContext) throws -> [Café] {\n\(descriptor)\nreturn cafés\n}\n"
        program += "print(try fetched(modelContext: modelContext).map { \"\\($0._0) \\($0.first_name_2)\" }.joined(separator: \"|\"))\n"
        let printed = try SwiftCompiler.compileAndRun(program)
        let expected = h.string(
            #"(function() local t = {} for o in r:objects() do t[#t+1] = o["$0"] .. " " .. o["first name"] end return table.concat(t, "|") end)()"#)
        #expect(printed == [expected ?? ""] && expected == "6 n1|5 n2|4 n3", "\(printed) \(expected ?? "")")
    }

    /// A refused part is named with its text on one comment line: a value with a line
    /// break in it stays inside the comment.
    @Test func noValueEndsAComment() throws {
        let h = try Harness()
        h.run(Self.model)
        let code = h.string(#"fetch{ "Quake", predicate = "place MATCHES %@", args = { "x\n exit(42) //" } }:swift("query")"#) ?? ""
        let lines = code.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines.count == 3 && lines[0].hasPrefix("// not expressed: predicate place MATCHES ") && lines[0].contains(#"\u{a} exit(42)"#), "\(code)")
        #expect(lines.dropFirst() == ["@Query(sort: [], animation: .default)", "private var quakes: [Quake]"], "\(code)")
    }

    static var luaObjects: String {
        var code = "local ann, bob = Person:new{ name = \"Ann\" }, Person:new{ name = \"Bob\" }\nlocal people = { ann, bob }\n"
        for q in quakes {
            code +=
                "Quake:new{ place = \"\(q.place)\", magnitude = \(q.magnitude), time = date(\(q.time)), day = \"\(q.day)\", tsunami = \(q.tsunami)"
            code += (q.owner.map { ", owner = people[\($0 + 1)]" } ?? "") + " }\n"
        }
        return code + "save()\n"
    }

    static let swiftClasses = """
        final class Person { var name: String; var quakes: [Quake] = []; init(name: String) { self.name = name } }
        final class Quake { var place: String; var magnitude: Double; var time: Date; var day: String; var tsunami: Bool; var code: UUID?; var owner: Person?
            init(place: String, magnitude: Double, time: Date, day: String, tsunami: Bool, owner: Person?) {
                self.place = place; self.magnitude = magnitude; self.time = time; self.day = day; self.tsunami = tsunami; self.owner = owner
            } }
        // SwiftData's models are Equatable (PersistentModel is Hashable), Core Data's through NSObject.
        extension Person: Equatable { static func == (a: Person, b: Person) -> Bool { a === b } }
        extension Quake: Equatable { static func == (a: Quake, b: Quake) -> Bool { a === b } }

        """

    static var swiftObjects: String {
        var code = "let people = [Person(name: \"Ann\"), Person(name: \"Bob\")]\nlet modelContext = ModelContext()\n"
        for q in quakes {
            code +=
                "modelContext.objects.append(Quake(place: \(swiftStringLiteral(q.place)), magnitude: \(q.magnitude), time: Date(timeIntervalSince1970: \(q.time)), "
            code += "day: \(swiftStringLiteral(q.day)), tsunami: \(q.tsunami), owner: \(q.owner.map { "people[\($0)]" } ?? "nil")))\n"
            code += "if let q = modelContext.objects.last as? Quake { q.owner?.quakes.append(q) }\n"
        }
        return code
    }

    /// SwiftUI, SwiftData and Core Data as far as the emitted code uses them.
    static let standIns = """
        import Foundation
        enum Animation { case `default` }
        struct StandInNSPredicate { init(format: String, _ arguments: Any...) {} }
        func standInSelector<T>(_ method: T) -> String { "" }
        extension String.StandardComparator { static var localized: Self { .lexical } }
        struct FetchedResults<Result> {}
        @propertyWrapper struct FetchRequest<Result> {
            init(sortDescriptors: [SortDescriptor<Result>], predicate: StandInNSPredicate? = nil, animation: Animation? = nil) {}
            var wrappedValue: FetchedResults<Result> { FetchedResults() }
        }
        struct SectionedFetchResults<Section: Hashable, Result> {}
        @propertyWrapper struct SectionedFetchRequest<Section: Hashable, Result> {
            init(sectionIdentifier: KeyPath<Result, Section>, sortDescriptors: [SortDescriptor<Result>], predicate: StandInNSPredicate? = nil, animation: Animation? = nil) {}
            var wrappedValue: SectionedFetchResults<Section, Result> { SectionedFetchResults() }
        }
        struct FetchDescriptor<T> {
            var predicate: Predicate<T>?
            var sortBy: [SortDescriptor<T>]
            var fetchLimit: Int?
            var fetchOffset: Int?
            var includePendingChanges = true
            var relationshipKeyPathsForPrefetching: [PartialKeyPath<T>] = []
            init(predicate: Predicate<T>? = nil, sortBy: [SortDescriptor<T>] = []) { self.predicate = predicate; self.sortBy = sortBy }
        }
        @propertyWrapper struct Query<Element> {
            init() {}
            init(filter: Predicate<Element>? = nil, sort: [SortDescriptor<Element>] = [], animation: Animation? = nil) {}
            init(_ descriptor: FetchDescriptor<Element>, animation: Animation? = nil) {}
            var wrappedValue: [Element] { [] }
        }
        final class ModelContext {
            var objects: [Any] = []
            func fetch<T>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
                var found = try objects.compactMap { $0 as? T }.filter { try descriptor.predicate?.evaluate($0) ?? true }
                found.sort(using: descriptor.sortBy)
                let from = min(descriptor.fetchOffset ?? 0, found.count)
                let rest = Array(found[from...])
                return descriptor.fetchLimit.map { Array(rest.prefix($0)) } ?? rest
            }
        }
        enum NSFetchRequestResultType { case managedObjectResultType, dictionaryResultType }
        enum NSAttributeType { case stringAttributeType, integer16AttributeType, integer32AttributeType, integer64AttributeType, doubleAttributeType,
            decimalAttributeType, booleanAttributeType, dateAttributeType, UUIDAttributeType, binaryDataAttributeType }
        final class NSExpressionDescription { var name = ""; var expression: StandInNSExpression?; var expressionResultType = NSAttributeType.stringAttributeType }
        final class StandInNSExpression {
            init(forFunction: String, arguments: [StandInNSExpression]) {}
            init(forKeyPath: String) {}
            static func expressionForEvaluatedObject() -> StandInNSExpression { StandInNSExpression(forKeyPath: "self") }
        }
        final class StandInNSSortDescriptor { init(key: String, ascending: Bool, selector: String? = nil) {} }
        final class NSFetchRequest<Result> {
            init(entityName: String) {}
            var predicate: StandInNSPredicate?
            var sortDescriptors: [StandInNSSortDescriptor]?
            var fetchLimit = 0, fetchOffset = 0, fetchBatchSize = 0
            var includesPendingChanges = true, includesSubentities = true, returnsDistinctResults = false
            var relationshipKeyPathsForPrefetching: [String]?
            var resultType = NSFetchRequestResultType.managedObjectResultType
            var propertiesToFetch: [Any]?, propertiesToGroupBy: [Any]?
            var havingPredicate: StandInNSPredicate?
        }
        final class NSManagedObjectContext { func fetch<R>(_ request: NSFetchRequest<R>) throws -> [R] { [] } }
        final class NSFetchedResultsController<R> {
            init(fetchRequest: NSFetchRequest<R>, managedObjectContext: NSManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?) {}
            func performFetch() throws {}
        }

        """
}
