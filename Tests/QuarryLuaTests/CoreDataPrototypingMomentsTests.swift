import Testing

/// Trial 30: an app developer prototyping Core Data and SwiftData predicates.
@Suite struct CoreDataPrototypingMomentsTests {
    static let model = #"""
        entity "Person" { firstName = "string" }
        entity "Car" { name = "string" }
        entity "JournalEntry" { location = "string", date = "date" }
        Person:new{ firstName = "Bret" }; Person:new{ firstName = "Ann" }
        JournalEntry:new{ location = "Malibu", date = date(os.time() - 86400) }
        JournalEntry:new{ location = "Malibu", date = date("1990-01-01") }
        save()
        """#

    /// Moment 3: `#keyPath(Person.firstName)` is the key "firstName", and a mismatch with
    /// the entity fetched is named; a refused argument does not speak of #Predicate.
    @Test func keyPathArgumentsOfAnNSPredicateAreKeys() throws {
        let h = try Harness()
        h.run(Self.model)
        #expect(h.string(#"count("Person", [[NSPredicate(format: "%K == %@", #keyPath(Person.firstName), "Bret")]])"#) == "1")
        let mismatch = h.error(#"count("Car", [[NSPredicate(format: "%K == %@", #keyPath(Person.firstName), "Bret")]])"#)
        #expect(mismatch.contains("#keyPath(Person.firstName) names a key of Person objects, and this fetch is of 'Car'"), "\(mismatch)")
        let refused = h.error(#"count("Person", [[NSPredicate(format: "%K == %@", #keyPath(Person.firstName), #selector(f))]])"#)
        #expect(!refused.contains("#Predicate") && refused.contains("NSPredicate(format:) argument"), "\(refused)")
    }

    /// Moment 2: the refusal inside the closure says to capture the value in a let, and
    /// that let is read.
    @Test func aDateComputedFromNowInALetIsRead() throws {
        let h = try Harness()
        h.run(Self.model)
        let inside = h.error(
            #"count("JournalEntry", [[#Predicate<JournalEntry> { $0.location == "Malibu" && $0.date > Date.now.addingTimeInterval(-86400*365*12) }]])"#
        )
        #expect(inside.contains("capture its value in a let before it"), "\(inside)")
        #expect(
            h.string(
                #"count("JournalEntry", [[let cutoff = Date.now.addingTimeInterval(-86400*365*12)"# + "\n"
                    + #"let p = #Predicate<JournalEntry> { $0.location == "Malibu" && $0.date > cutoff }]])"#) == "1")
    }

    /// Moment 4: a number given for a date is pointed to date(...), as a string is.
    @Test func aNumberForADateNamesDate() throws {
        let h = try Harness()
        h.run(Self.model)
        let number = h.error(#"count("JournalEntry", "date >= %@", 1700000000)"#)
        #expect(number.contains("or given as date(...) (date(1700000000) for 1700000000 seconds since 1970)"), "\(number)")
        let text = h.error(#"count("JournalEntry", "date >= %@", "last week")"#)
        #expect(text.contains("date(...)"), "\(text)")
    }

    /// Moment 1, in Lua's own table form: `compare = "localizedStandard"`, which `r.sort`
    /// gives back for a Swift `.localizedStandard`.
    @Test func localizedStandardIsACompareOfItsOwn() throws {
        let h = try Harness()
        h.run(#"entity "Item" { name = "string" }; for _, n in ipairs({ "Item 10", "item 2", "Item 1" }) do Item:new{ name = n } end; save()"#)
        #expect(
            h.string(
                #"(function() local t = {} for _, o in ipairs(fetch{ "Item", sort = { { "name", compare = "localizedStandard" } } }) do t[#t+1] = o.name end return table.concat(t, "|") end)()"#
            )
                == "Item 1|item 2|Item 10")
        #expect(h.string(#"fetch{ "Item", sort = [[SortDescriptor(\.name)]] }.sort[1].compare"#) == "localizedStandard")
        #expect(h.string(#"fetch{ "Item", sort = [[SortDescriptor(\.name, comparator: .localized)]] }.sort[1].compare"#) == "localized")
    }
}
