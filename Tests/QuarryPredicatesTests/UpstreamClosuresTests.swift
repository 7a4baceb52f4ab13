import Foundation
import QuarryPredicates
import QuarrySwiftInput
import QuarrySwiftReading
import Testing

/// Issue #79: every `#Predicate` closure in swift-foundation's predicate tests
/// (`Tests/FoundationEssentialsTests/PredicateTests.swift`, `PredicateConversionTests.swift`,
/// `PredicateCodableTests.swift`, `Tests/FoundationInternationalizationTests/
/// PredicateInternationalizationTests.swift`; swift-corelibs-foundation's `TestNSPredicate`
/// and `TestNSCompoundPredicate` hold none), as a person would paste it: the closure with
/// the `let`s its test defines before it (a nested predicate's `let`, the dates of a
/// captured range), each named after the test it is in. Each is read by Quarry's reader,
/// or refused in one line, with its column, saying what was written. Which rows those
/// read select is judged against Foundation's `Predicate.evaluate` where they are about a
/// model object's values (`FoundationConformanceTests`); the counts here are the ones
/// `docs/swift.md` states.
@Suite struct UpstreamClosuresTests {
    /// (upstream test, Swift, nil when read, else what the refusal says).
    static let closures: [(String, String, String?)] = [
        (
            "PredicateTests.getPredicate",
            ##"""
            let query = #Predicate { $0.prop == 2 }
            """##,
            nil
        ),
        (
            "PredicateTests.basic",
            ##"""
            let compareTo = 2
            let query = #Predicate<Object> {
                $0.a == compareTo
            }
            """##,
            nil
        ),
        (
            "PredicateTests.variadic",
            ##"""
            let query = #Predicate<Object, Int> {
                $0.a == $1 + 1
            }
            """##,
            "#Predicate<Object, Int> takes 2 inputs"
        ),
        (
            "PredicateTests.arithmetic",
            ##"""
            let query = #Predicate<Object> {
                $0.a + 2 == 4
            }
            """##,
            nil
        ),
        (
            "PredicateTests.division",
            ##"""
            let query = #Predicate<Object> {
                $0.a / 2 == 3
            }
            """##,
            nil
        ),
        (
            "PredicateTests.division",
            ##"""
            let query = #Predicate<Object> {
                $0.c / 2.1 <= 3.0
            }
            """##,
            nil
        ),
        (
            "PredicateTests.unaryMinus",
            ##"""
            let query = #Predicate<Object> {
                -$0.a == 17
            }
            """##,
            nil
        ),
        (
            "PredicateTests.count",
            ##"""
            let query = #Predicate<Object> {
                $0.g.count == 5
            }
            """##,
            nil
        ),
        (
            "PredicateTests.filter",
            ##"""
            let query = #Predicate<Object> { object in
                !object.g.filter {
                    $0 == object.d
                }.isEmpty
            }
            """##,
            "'$0' alone is the member itself"
        ),
        (
            "PredicateTests.contains",
            ##"""
            let query = #Predicate<Object> {
                $0.g.contains($0.a)
            }
            """##,
            nil
        ),
        (
            "PredicateTests.containsWhere",
            ##"""
            let query = #Predicate<Object> { object in
                object.g.contains {
                    $0 % object.a == 0
                }
            }
            """##,
            "'$0' alone is the member itself"
        ),
        (
            "PredicateTests.allSatisfy",
            ##"""
            let query = #Predicate<Object> { object in
                object.g.allSatisfy {
                    $0 % object.d != 0
                }
            }
            """##,
            "'$0' alone is the member itself"
        ),
        (
            "PredicateTests.conditional",
            ##"""
            let query = #Predicate<Bool, String, String> {
                ($0 ? $1 : $2) == "if branch"
            }
            """##,
            "#Predicate<Bool, String, String> takes 3 inputs"
        ),
        (
            "PredicateTests.closedRange",
            ##"""
            let query = #Predicate<Object> {
                (3...5).contains($0.a)
            }
            """##,
            nil
        ),
        (
            "PredicateTests.closedRange",
            ##"""
            let query = #Predicate<Object> {
                ($0.a ... $0.d).contains(4)
            }
            """##,
            nil
        ),
        (
            "PredicateTests.range",
            ##"""
            let query = #Predicate<Object> {
                (3 ..< 5).contains($0.a)
            }
            """##,
            nil
        ),
        (
            "PredicateTests.range",
            ##"""
            let toMatch = 4
            let query = #Predicate<Object> {
                ($0.a ..< $0.d).contains(toMatch)
            }
            """##,
            nil
        ),
        (
            "PredicateTests.rangeContains",
            ##"""
            let date = Date.distantPast
            let query = #Predicate<Object> {
                (date ..< date).contains($0.h)
            }
            """##,
            nil
        ),
        (
            "PredicateTests.types",
            ##"""
            let query = #Predicate<Object> {
                ($0.i as? Int).flatMap { $0 == 3 } ?? false
            }
            """##,
            "'as?' in '$0.i as? Int' has no #Predicate form Quarry reads"
        ),
        (
            "PredicateTests.types",
            ##"""
            let query = #Predicate<Object> {
                $0.i is Int
            }
            """##,
            "'is' in '$0.i is Int' has no #Predicate form Quarry reads"
        ),
        (
            "PredicateTests.subscripts",
            ##"""
            let query = #Predicate<Object> {
                $0.g[0] == 0
            }
            """##,
            "a subscript ('$0.g[0]')"
        ),
        (
            "PredicateTests.subscripts",
            ##"""
            let query = #Predicate<Object> {
                $0.g[0 ..< 2].isEmpty
            }
            """##,
            "a subscript ('$0.g[0 ..< 2]')"
        ),
        (
            "PredicateTests.lazyDefaultValueSubscript",
            ##"""
            let foo = Foo()
            let query = #Predicate<[String : Int]> {
                $0["key", default: foo.property] == 1
            }
            """##,
            "a dictionary [key"
        ),
        (
            "PredicateTests.maxMin",
            ##"""
            let query = #Predicate<Object> {
                $0.g.max() == 2
            }
            """##,
            "max(...) has no #Predicate form Quarry reads"
        ),
        (
            "PredicateTests.maxMin",
            ##"""
            let query = #Predicate<Object> {
                $0.g.min() == 2
            }
            """##,
            "min(...) has no #Predicate form Quarry reads"
        ),
        (
            "PredicateTests.caseInsensitiveCompare",
            ##"""
            let equal = ComparisonResult.orderedSame
            let query = #Predicate<Object> {
                $0.b.caseInsensitiveCompare("ABC") == equal
            }
            """##,
            nil
        ),
        (
            "PredicateTests.resilientKeyPaths",
            ##"""
            let now = Date.now
            let query = #Predicate<Foo> {
                $0.a == $0.c && $0.b == now
            }
            """##,
            nil
        ),
        (
            "PredicateTests.finalKeyPaths",
            ##"""
            let id: Int = 1
            let query = #Predicate<Foo> { $0.id == 2 }
            """##,
            nil
        ),
        (
            "PredicateTests.regex",
            ##"""
            let literalRegex = #/[AB0-9]\/?[^\n]+/#
            let query = #Predicate<Object> {
                $0.b.contains(literalRegex)
            }
            """##,
            "a regular expression ('#/[AB0-9]\\/?[^\\n]+/#')"
        ),
        (
            "PredicateTests.regex",
            ##"""
            let query = #Predicate<Object> {
                $0.b.contains(#/[AB0-9]\/?[^\n]+/#)
            }
            """##,
            "a regular expression ('#/[AB0-9]\\/?[^\\n]+/#')"
        ),
        (
            "PredicateTests.regex_RegexBuilder",
            ##"""
            let builtRegex = Regex {
                ChoiceOf {
                    "A"
                    "B"
                    CharacterClass.digit
                }
                Optionally("/")
                OneOrMore(.anyNonNewline)
            }
            let query = #Predicate<Object> {
                $0.b.contains(builtRegex)
            }
            """##,
            "Regex(...) is no captured value Quarry reads (literals, Float(22.5), Date(timeIntervalSinceReferenceDat"
        ),
        (
            "PredicateTests.debugDescription",
            ##"""
            let date = Date.now
            let query = #Predicate<Object> {
                if let num = $0.i as? Int {
                    num == 3
                } else {
                    $0.h == date
                }
            }
            """##,
            "a #Predicate closure holds one expression, not this statement"
        ),
        (
            "PredicateTests.nested",
            ##"""
            let query = #Predicate<Object> {
                $0.a == 3
            }
            """##,
            nil
        ),
        (
            "PredicateTests.nested",
            ##"""
            let predicateA = #Predicate<Object> {
                $0.a == 3
            }
            let query = #Predicate<Object> {
                predicateA.evaluate($0) && $0.a > 2
            }
            """##,
            nil
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { $0.a == 6 }
            """##,
            nil
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { $0.b == "xyz" }
            """##,
            nil
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { $0.c < 0.3 }
            """##,
            nil
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { $0.d == 97 }
            """##,
            nil
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { $0.d % 2 != 0 }
            """##,
            nil
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { !$0.f }
            """##,
            nil
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { $0.g.contains(42) }
            """##,
            nil
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { $0.g.min() == 0 }
            """##,
            "min(...) has no #Predicate form Quarry reads"
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { $0.g.max() == 7 }
            """##,
            "max(...) has no #Predicate form Quarry reads"
        ),
        (
            "PredicateTests.all",
            ##"""
            let query = #Predicate { $0.c < 0.0 }
            """##,
            nil
        ),
        (
            "PredicateTests.allShortCircuitEvaluation",
            ##"""
            let query = #Predicate { $0.first }
            """##,
            nil
        ),
        (
            "PredicateTests.allShortCircuitEvaluation",
            ##"""
            let query = #Predicate { $0.second }
            """##,
            nil
        ),
        (
            "PredicateTests.allShortCircuitEvaluation",
            ##"""
            let query = #Predicate { $0.third }
            """##,
            nil
        ),
        (
            "PredicateTests.any",
            ##"""
            let query = #Predicate { $0.g.max() == 7 }
            """##,
            "max(...) has no #Predicate form Quarry reads"
        ),
        (
            "PredicateTests.any",
            ##"""
            let query = #Predicate { $0.c < 0.0 }
            """##,
            nil
        ),
        (
            "PredicateTests.any",
            ##"""
            let query = #Predicate { $0.a == 6 }
            """##,
            nil
        ),
        (
            "PredicateTests.any",
            ##"""
            let query = #Predicate { $0.b == "xyz" }
            """##,
            nil
        ),
        (
            "PredicateTests.any",
            ##"""
            let query = #Predicate { $0.c < 0.3 }
            """##,
            nil
        ),
        (
            "PredicateTests.anyShortCircuitEvaluation",
            ##"""
            let query = #Predicate { $0.first }
            """##,
            nil
        ),
        (
            "PredicateTests.anyShortCircuitEvaluation",
            ##"""
            let query = #Predicate { $0.second }
            """##,
            nil
        ),
        (
            "PredicateTests.anyShortCircuitEvaluation",
            ##"""
            let query = #Predicate { $0.third }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.basics",
            ##"""
            let compareTo = 2
            let query = #Predicate<ObjCObject> {
                $0.a == compareTo
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.basics",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.a + 2 == 4
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.basics",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.b.count == 5
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.basics",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.g.count == 5
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.basics",
            ##"""
            let query = #Predicate<ObjCObject> { object in
                object.g.filter {
                    $0 == object.d
                }.count > 0
            }
            """##,
            "'$0' alone is the member itself"
        ),
        (
            "PredicateConversionTests.equality",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.a == 0
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.equality",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.a != 0
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.ranges",
            ##"""
            let query = #Predicate<ObjCObject> {
                ($0.i ... $0.i).contains($0.i)
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.ranges",
            ##"""
            let query = #Predicate<ObjCObject> {
                ($0.i ..< $0.i).contains($0.i)
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.ranges",
            ##"""
            let now = Date.now
            let range = now ..< now
            let query = #Predicate<ObjCObject> {
                range.contains($0.i)
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.ranges",
            ##"""
            let now = Date.now
            let closedRange = now ... now
            let query = #Predicate<ObjCObject> {
                closedRange.contains($0.i)
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.ranges",
            ##"""
            let now = Date.now
            let from = now...
            let query = #Predicate<ObjCObject> {
                from.contains($0.i)
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.ranges",
            ##"""
            let now = Date.now
            let through = ...now
            let query = #Predicate<ObjCObject> {
                through.contains($0.i)
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.ranges",
            ##"""
            let now = Date.now
            let upTo = ..<now
            let query = #Predicate<ObjCObject> {
                upTo.contains($0.i)
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.rangesDistinctBounds",
            ##"""
            let lowerDate = Date(timeIntervalSinceReferenceDate: 100)
            let upperDate = Date(timeIntervalSinceReferenceDate: 200)
            let range = lowerDate ..< upperDate
            let query = #Predicate<ObjCObject> {
                range.contains($0.i)
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.nonObjC",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.nonObjCKeypath == 2
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.nonObjCConstantKeyPath",
            ##"""
            let nonObjC = NonObjCStruct(a: 1, b: [1, 2, 3])
            let query = #Predicate<ObjCObject> {
                $0.a == nonObjC.a
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.nonObjCConstantKeyPath",
            ##"""
            let nonObjC = NonObjCStruct(a: 1, b: [1, 2, 3])
            let query = #Predicate<ObjCObject> {
                $0.f == nonObjC.b.contains([1, 2])
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.subscripts",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.g[0] == 2
            }
            """##,
            "a subscript ('$0.g[0]')"
        ),
        (
            "PredicateConversionTests.subscripts",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.h["A"] == 1
            }
            """##,
            "a subscript ('$0.h[\"A\"]')"
        ),
        (
            "PredicateConversionTests.stringSearching",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.b.contains("foo")
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.stringSearching",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.b.starts(with: "foo")
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.expressionEnforcement",
            ##"""
            let query = #Predicate<ObjCObject> { _ in
                true
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.expressionEnforcement",
            ##"""
            let query = #Predicate<ObjCObject> { _ in
                false
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.expressionEnforcement",
            ##"""
            let query = #Predicate<ObjCObject> { _ in
                true && false
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.expressionEnforcement",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.f
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.expressionEnforcement",
            ##"""
            let query = #Predicate<ObjCObject> {
                ($0.f && true) == false
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.conditional",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.f ? true : false
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.optionals",
            ##"""
            let query = #Predicate<ObjCObject> {
                ($0.j ?? "").isEmpty
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.optionals",
            ##"""
            let query = #Predicate<ObjCObject> {
                ($0.j?.count ?? -1) > 1
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.optionals",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.j == nil
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.uuid",
            ##"""
            let uuid = obj.k
            let query = #Predicate<ObjCObject> {
                $0.k == uuid
            }
            """##,
            "'obj.k' is a value of the app's ('obj'), which Quarry has not"
        ),
        (
            "PredicateConversionTests.date",
            ##"""
            let now = Date.now
            let query = #Predicate<ObjCObject> {
                $0.i > now
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.data",
            ##"""
            let data = Data([1, 2, 3])
            let query = #Predicate<ObjCObject> {
                $0.l == data
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.url",
            ##"""
            let url = URL(string: "http://apple.com")!
            let query = #Predicate<ObjCObject> {
                $0.m == url
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.sequenceContainsWhere",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.g.contains { $0 == 2 }
            }
            """##,
            "'$0' alone is the member itself"
        ),
        (
            "PredicateConversionTests.sequenceAllSatisfy",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.g.allSatisfy { $0 == 2 }
            }
            """##,
            "'$0' alone is the member itself"
        ),
        (
            "PredicateConversionTests.maxMin",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.g.max() == $0.g.min()
            }
            """##,
            "max(...) has no #Predicate form Quarry reads"
        ),
        (
            "PredicateConversionTests.stringComparison",
            ##"""
            let equal = ComparisonResult.orderedSame
            let query = #Predicate<ObjCObject> {
                $0.b.caseInsensitiveCompare("ABC") == equal
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.stringComparison",
            ##"""
            let equal = ComparisonResult.orderedSame
            let query = #Predicate<ObjCObject> {
                $0.b.localizedCompare("ABC") == equal
            }
            """##,
            "localizedCompare(_:) == .orderedSame is the user's locale's collation, which no store repeats"
        ),
        (
            "PredicateConversionTests.stringComparison",
            ##"""
            let query = #Predicate<ObjCObject> {
                $0.b.localizedStandardContains("ABC")
            }
            """##,
            nil
        ),
        (
            "PredicateConversionTests.regex",
            ##"""
            let regex = #/[e-f][l-m]/#
            let query = #Predicate<ObjCObject> {
                $0.b.contains(regex)
            }
            """##,
            "a regular expression ('#/[e-f][l-m]/#')"
        ),
        (
            "PredicateCodableTests.basicEncodeDecode",
            ##"""
            let query = #Predicate<Object> {
                $0.a == 2
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.disallowedKeyPath",
            ##"""
            let query = #Predicate<Object> {
                $0.f
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.disallowedKeyPath",
            ##"""
            let query = #Predicate<Object> {
                $0.a == 1
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.keyPathTypeMismatch",
            ##"""
            let query = #Predicate<Object> {
                $0.a == 2
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.disallowedType",
            ##"""
            let uuid = UUID()
            let query = #Predicate<Object> { obj in
                uuid == uuid
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.providedProperties",
            ##"""
            let query = #Predicate<Object> {
                $0.a == 2
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.providedProperties",
            ##"""
            let query = #Predicate<Object> {
                $0.f == false
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.providedProperties",
            ##"""
            let query = #Predicate<Object> {
                $0.h.a == 1
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.defaultAllowlist",
            ##"""
            let query = #Predicate<String> {
                $0.isEmpty
            }
            """##,
            "#Predicate<String> tests String values"
        ),
        (
            "PredicateCodableTests.defaultAllowlist",
            ##"""
            let query = #Predicate<String> {
                $0.count > 2
            }
            """##,
            "#Predicate<String> tests String values"
        ),
        (
            "PredicateCodableTests.defaultAllowlist",
            ##"""
            let query = #Predicate<String> {
                $0.contains(/[a-z]/)
            }
            """##,
            "#Predicate<String> tests String values"
        ),
        (
            "PredicateCodableTests.defaultAllowlist",
            ##"""
            let query = #Predicate<Object> {
                $0 == $0
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.defaultAllowlist",
            ##"""
            let query = #Predicate<Int> {
                (0 ..< 4).contains($0)
            }
            """##,
            "#Predicate<Int> tests Int values"
        ),
        (
            "PredicateCodableTests.basicVariadic",
            ##"""
            let query = #Predicate<Object, Object> {
                $0.a == 2 && $1.a == 3
            }
            """##,
            "#Predicate<Object, Object> takes 2 inputs"
        ),
        (
            "PredicateCodableTests.encode",
            ##"""
            let a = A(String.self, Int.self)
            let query = #Predicate<Int> { _ in
                a == a
            }
            """##,
            "A(...) is no captured value Quarry reads (literals, Float(22.5), Date(timeIntervalSinceReferenceDate:),"
        ),
        (
            "PredicateCodableTests.nestedPredicates",
            ##"""
            let query = #Predicate<Object> {
                $0.a == 3
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.nestedPredicates",
            ##"""
            let predicateA = #Predicate<Object> {
                $0.a == 3
            }
            let query = #Predicate<Object> {
                predicateA.evaluate($0) && $0.a > 2
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.encode",
            ##"""
            let query = #Predicate<Object> {
                $0.a == 3
            }
            """##,
            nil
        ),
        (
            "PredicateCodableTests.encode",
            ##"""
            let predicateA = #Predicate<Object> {
                $0.a == 3
            }
            let box = RestrictedBox(predicateA)
            let query = #Predicate<Object> {
                box.predicate.evaluate($0) && $0.a > 2
            }
            """##,
            "RestrictedBox(...) is no captured value Quarry reads (literals, Float(22.5), Date(timeIntervalSinceRefe"
        ),
        (
            "PredicateInternationalizationTests.testLocalizedCompare",
            ##"""
            let query = #Predicate<String, String, ComparisonResult> {
                $0.localizedCompare($1) == $2
            }
            """##,
            "#Predicate<String, String, ComparisonResult> takes 3 inputs"
        ),
        (
            "PredicateInternationalizationTests.testLocalizedStandardContains",
            ##"""
            let query = #Predicate<Object> {
                $0.string.localizedStandardContains("ABC")
            }
            """##,
            nil
        )
    ]

    static var readCount: Int { closures.filter { $0.2 == nil }.count }

    @Test func eachIsReadOrRefusedInOneLineNamingIt() {
        for (test, swift, refusal) in Self.closures {
            do {
                let read = try SwiftPredicateReader.read(swift, captures: [:])
                #expect(refusal == nil, "\(test) was read as \(read.predicate), expected refused: \(refusal ?? "")")
            } catch let error as QuarryPredicates.PredicateError {
                #expect(refusal.map { error.message.contains($0) } == true, "\(test): \(error.message)")
                #expect(!error.message.contains("\n") && error.column != nil, "\(test): \(error.message)")
            } catch {
                Issue.record("\(test): \(error)")
            }
        }
        #expect(Self.closures.count == 118)
        #expect(Self.readCount == 82, "\(Self.readCount) of \(Self.closures.count) read")
    }

    /// docs/swift.md states the counts this suite and `UpstreamConversionFormatsTests` assert.
    @Test func theDocumentationStatesTheseCounts() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/swift.md"), encoding: .utf8)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let closures = "Of the \(Self.closures.count) `#Predicate` closures in swift-foundation's predicate tests, \(Self.readCount) are read"
        #expect(text.contains(closures), "docs/swift.md does not say: \(closures)")
        let formats = UpstreamConversionFormatsTests.cases
        let read = formats.filter { $0.3 == nil }.count + 1
        let said = "(\(formats.count) predicates and an expression): \(read) are read"
        #expect(text.contains(said), "docs/swift.md does not say: \(said)")
        let judged = FoundationConformanceTests.judgedCount
        let conformance = "(\(judged) cases, all agreeing"
        #expect(text.contains(conformance), "docs/swift.md does not say: \(conformance)")
    }
}
