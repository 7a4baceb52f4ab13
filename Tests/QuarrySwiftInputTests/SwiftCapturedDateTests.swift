import Foundation
import QuarryPredicates
import QuarryStore
import QuarrySwiftInput
import QuarrySwiftReading
import Testing

/// Trial 30, moments 2 and 3. A `let` before the `#Predicate` may hold a date computed from
/// the time it runs (`Date.now.addingTimeInterval(-86400*365*12)`), read once; before, the
/// refusal inside the closure said to capture it in a let, and the let was refused with a
/// list that left `Date.now` out. An `NSPredicate(format:)`'s `#keyPath(Person.firstName)`
/// is the key's text; before, it "had no #Predicate form".
@Suite struct SwiftCapturedDateTests {
    /// The seconds from 1970 `source`'s predicate compares `date` with.
    static func seconds(_ source: String) throws -> Double? {
        let read = try SwiftPredicateReader.read(source, captures: [:])
        guard case .comparison(let c) = read.predicate else { return nil }
        if case .constant(.date(let s), _) = c.rhs { return s }
        return nil
    }

    @Test func aLetComputesADateFromNowOnce() throws {
        let now = Date().timeIntervalSince1970
        let cases: [(String, Double)] = [
            ("let cutoff = Date.now.addingTimeInterval(-86400*365*12)\n#Predicate<JournalEntry> { $0.date > cutoff }", -86400 * 365 * 12),
            ("let cutoff = Date().addingTimeInterval(3600 / 8)\n#Predicate<JournalEntry> { $0.date > cutoff }", 450),
            ("let cutoff = Date(timeIntervalSinceNow: -(60 * 60) + 0.5)\n#Predicate<JournalEntry> { $0.date > cutoff }", -3599.5),
            ("let day = 86400\nlet cutoff = Date.now.addingTimeInterval(-day * 2)\n#Predicate<JournalEntry> { $0.date > cutoff }", -172800)
        ]
        for (source, offset) in cases {
            let read = try #require(try Self.seconds(source), "\(source)")
            #expect(abs(read - (now + offset)) < 60, "\(source): \(read - now)")
        }
        // On a fixed date, exactly.
        let fixed = try Self.seconds(
            "let start = Date(timeIntervalSinceReferenceDate: 0)\nlet end = start.addingTimeInterval(1.5).addingTimeInterval(60)\n#Predicate<JournalEntry> { $0.date > end }"
        )
        #expect(fixed == 978_307_200 + 61.5)
    }

    @Test func whatIsNotReadIsSaidWithTheFormsThatAre() {
        let cases: [(String, String)] = [
            (
                "let c = Date.now.addingTimeInterval(offset)\n#Predicate<JournalEntry> { $0.date > c }",
                "a time interval is read as numbers with + - * /"
            ),
            ("let c = \"x\".addingTimeInterval(5)\n#Predicate<JournalEntry> { $0.date > c }", "addingTimeInterval(_:) is read on a date"),
            ("let c = Calendar.current.date(byAdding: .day, value: -1, to: .now)\n#Predicate<JournalEntry> { $0.date > c }", "Date.now, Date(),")
        ]
        for (source, message) in cases {
            #expect {
                try SwiftPredicateReader.read(source, captures: [:])
            } throws: { error in
                guard let error = error as? QuarryPredicates.PredicateError else { return false }
                return error.message.contains(message) && !error.message.contains("\n")
            }
        }
    }

    /// The caret's line is the one its column falls in, not the lines joined.
    @Test func thePointerShowsTheLineOfItsColumn() throws {
        let source = "let cutoff = Date.now.addingTimeInterval(-86400*365*12)\nlet p = #Predicate<JournalEntry> { $0.date > cutof }"
        let column = try #require(source.range(of: "cutof }").map { source.distance(from: source.startIndex, to: $0.lowerBound) + 1 })
        #expect(
            QuarryPredicates.PredicateError.pointer(to: column, in: source)
                == "  let p = #Predicate<JournalEntry> { $0.date > cutof }\n                                               ^")
        #expect(QuarryPredicates.PredicateError.pointer(to: 5, in: source) == "  let cutoff = Date.now.addingTimeInterval(-86400*365*12)\n      ^")
        #expect(QuarryPredicates.PredicateError.pointer(to: 3, in: "a\nb") == "  b\n  ^")
        // A column on a newline is the end of the line before it.
        #expect(QuarryPredicates.PredicateError.pointer(to: 2, in: "a\nb") == "  a\n   ^")
    }

    @Test func aKeyPathInAnNSPredicateIsItsKey() throws {
        let read = try SwiftPredicateReader.read(#"NSPredicate(format: "%K == %@", #keyPath(Person.firstName), "Bret")"#, captures: [:])
        #expect(read.predicate.description == #"firstName == "Bret""#)
        #expect(read.typeName == "Person" && read.keyPath == "#keyPath(Person.firstName)" && read.typeColumn == 33)
        let path = try SwiftPredicateReader.read(#"NSPredicate(format: "%K BEGINSWITH %@", #keyPath(Car.owner.firstName), "B")"#, captures: [:])
        #expect(path.predicate.description == #"owner.firstName BEGINSWITH "B""#)
        #expect(throws: QuarryPredicates.PredicateError.self) { try SwiftPredicateReader.check(read, entity: "Car", ancestors: []) }
        do {
            try SwiftPredicateReader.check(read, entity: "Car", ancestors: [])
        } catch let error as QuarryPredicates.PredicateError {
            #expect(error.message == "#keyPath(Person.firstName) names a key of Person objects, and this fetch is of 'Car'")
        }
        try SwiftPredicateReader.check(read, entity: "Employee", ancestors: ["Person"])
    }

    /// A refusal of an NSPredicate's argument speaks of the format's arguments, not of #Predicate.
    @Test func anNSPredicateArgumentRefusalDoesNotTalkAboutPredicateMacros() {
        #expect {
            try SwiftPredicateReader.read(#"NSPredicate(format: "name == %@", #selector(Person.name))"#, captures: [:])
        } throws: { error in
            guard let error = error as? QuarryPredicates.PredicateError else { return false }
            return !error.message.contains("#Predicate") && error.message.contains("NSPredicate(format:) argument")
        }
    }
}
