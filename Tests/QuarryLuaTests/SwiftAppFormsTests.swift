import Foundation
import QuarryLua
import QuarryStore
import QuarryTestSupport
import Testing

/// Trial 25: Swift an app writes, pasted as it stands in the app (SnippetBox, a SwiftData
/// app: gahntpo/SnippetBox-SwiftData), reads as the app's Foundation means it.
@Suite struct SwiftAppFormsTests {
    static let model = #"""
        entity "Folder" { name = "string" }
        entity "Snippet" { title = "string", made = "date", folder = { one = "Folder", inverse = "snippets", optional = true } }
        entity "Folder" { name = "string", snippets = { many = "Snippet", inverse = "folder" } }
        local new, work = Folder:new{ name = "new folder" }, Folder:new{ name = "Work" }
        for i, t in ipairs({ "ui", "List", "async", "Core Data", "Bug", "café" }) do
          Snippet:new{ title = t, made = date(1700000000 + i), folder = (i <= 2) and new or ((i <= 4) and work or nil) }
        end
        save()
        """#

    static func titles(_ h: Harness, _ request: String) -> String {
        h.string("(function() local t = {} for _, o in ipairs(fetch\(request)) do t[#t+1] = o.title end return table.concat(t, '|') end)()")
            ?? "<error>"
    }

    /// `SortDescriptor(\Tag.name)` names no comparator, and Foundation's for a String key
    /// path is `.localizedStandard` (case and accents aside); a bare `\.name` sorts as
    /// String's `<`, and `.lexical` so too. Before, all three sorted by code points.
    @Test func aSortDescriptorOfAStringWithNoComparatorSortsAsFoundationDoes() throws {
        let h = try Harness()
        h.run(Self.model)
        let localized = "async|Bug|café|Core Data|List|ui"
        let lexical = "Bug|Core Data|List|async|café|ui"
        #expect(Self.titles(h, #"{ "Snippet", sort = [[SortDescriptor(\Snippet.title)]] }"#) == localized)
        #expect(Self.titles(h, #"{ "Snippet", sort = [[[SortDescriptor(\.title, order: .reverse)] ]] }"#) == "ui|List|Core Data|café|Bug|async")
        #expect(Self.titles(h, #"{ "Snippet", sort = [[SortDescriptor(\.title, comparator: .localizedStandard)]] }"#) == localized)
        #expect(Self.titles(h, #"{ "Snippet", sort = [[SortDescriptor(\.title, comparator: .lexical)]] }"#) == lexical)
        #expect(Self.titles(h, #"{ "Snippet", sort = [[\Snippet.title]] }"#) == lexical)
        // r.sort = and r:configure{ sort = } read it the same.
        #expect(
            h.string(#"(function() local r = fetch("Snippet") r.sort = [[SortDescriptor(\.title)]] return r[1].title end)()"#) == "async")
        #expect(
            h.string(#"(function() local r = fetch("Snippet") r:configure{ sort = [[SortDescriptor(\.title)]] } return r[1].title end)()"#)
                == "async")
        // A key that is no String keeps its own order, and goes out with no string selector.
        #expect(Self.titles(h, #"{ "Snippet", sort = [[SortDescriptor(\.made, order: .reverse)]] }"#) == "café|Bug|Core Data|async|List|ui")
        let request = h.string(#"fetch{ "Snippet", sort = [[SortDescriptor(\.made)]] }:swift("nsfetchrequest")"#) ?? ""
        #expect(request.contains(#"NSSortDescriptor(key: "made", ascending: true)"#), "\(request)")
        // Through a to-one, by the String it reaches.
        #expect(
            Self.titles(h, #"{ "Snippet", "folder != nil", sort = { [[SortDescriptor(\.folder?.name)]], "title" } }"#)
                == "List|ui|Core Data|async")
    }

    /// `NSPredicate(format: "...", args)` as an app writes it in place, with no `let`:
    /// before, a format string `format:(` and "expected '(' after the function name".
    @Test func anNSPredicateWrittenInPlaceReadsAsItsFormat() throws {
        let h = try Harness()
        h.run(Self.model)
        #expect(h.string(#"count("Snippet", [[NSPredicate(format: "folder.name ==[c] %@", "WORK")]])"#) == "2")
        #expect(h.string(#"count("Snippet", [[  NSPredicate (format: "title BEGINSWITH 'c'")]])"#) == "1")
        #expect(h.string(#"Snippet:count([[NSPredicate(format: "folder == nil")]])"#) == "2")
        let unknown = h.error(#"count("Snippet", [[NSPredicate(format: "title == %@", name)]])"#)
        #expect(unknown.contains("'name' in NSPredicate(format:, ...) is a value of the app's"), "\(unknown)")
    }

    /// `$0.folder?.name.contains("new") == true`, as SnippetBox filters: the optional Bool
    /// compared with a literal, nil being neither. Before, refused as "a call the macro
    /// does not take inside the closure".
    @Test func anOptionalTestComparedWithABoolLiteral() throws {
        let h = try Harness()
        h.run(Self.model)
        let cases: [(String, String)] = [
            (#"$0.folder?.name.contains("new") == true"#, "ui|List"),
            (#"$0.folder?.name.contains("new") == false"#, "async|Core Data"),
            (#"$0.folder?.name.contains("new") != true"#, "async|Core Data|Bug|café"),
            (#"$0.folder?.name.contains("new") != false"#, "ui|List|Bug|café"),
            (#"true == $0.folder?.name.starts(with: "W")"#, "async|Core Data")
        ]
        for (test, expected) in cases {
            #expect(Self.titles(h, "{ 'Snippet', [==[#Predicate<Snippet> { \(test) }]==], sort = 'made' }") == expected, "\(test)")
            // In memory (p:matches) as in SQL.
            let matched = h.string(
                "(function() local p = predicate([==[#Predicate<Snippet> { \(test) }]==]) local t = {} for _, o in ipairs(fetch{ 'Snippet', sort = 'made' }) do if p:matches(o) then t[#t+1] = o.title end end return table.concat(t, '|') end)()"
            )
            #expect(matched == expected, "\(test) in memory")
        }
    }

    /// `let id = UUID(uuidString: "...")!`, as an app spells a UUID it knows: before,
    /// "a key path starts from the closure's object ($0 or its name), not 'UUID(...'".
    @Test func aUUIDFromItsStringIsACapturedValue() throws {
        let h = try Harness()
        h.run(
            #"entity "Box" { id = "uuid", name = "string" } Box:new{ id = "7d444840-9dc0-11d1-b245-5ffdce74fad2", name = "a" } Box:new{ id = "00000000-0000-0000-0000-000000000001", name = "b" } save()"#
        )
        #expect(
            h.string(#"count("Box", [[let id = UUID(uuidString: "7D444840-9DC0-11D1-B245-5FFDCE74FAD2")!\#n#Predicate<Box> { $0.id == id }]])"#)
                == "1")
        #expect(
            h.string(#"count("Box", [[let id = UUID(uuidString: "7d444840-9dc0-11d1-b245-5ffdce74fad2")!\#n#Predicate<Box> { $0.id != id }]])"#)
                == "1")
        let bad = h.error(#"count("Box", [[let id = UUID(uuidString: "nope")!\#n#Predicate<Box> { $0.id == id }]])"#)
        #expect(bad.contains("UUID(uuidString:) is read with a string literal that is a UUID"), "\(bad)")
    }

    /// A case of the app's enum (`CodingLanguage.swift`) is named as a value only the app
    /// has, and `.rawValue` of an attribute as the attribute itself: before, "a key path
    /// starts from the closure's object" and "not a relationship", with no way forward.
    @Test func anEnumOfTheAppsIsNamedAsSuch() throws {
        let h = try Harness()
        h.run(#"entity "Snip" { language = "int64" } Snip:new{ language = 1 } save()"#)
        let enumCase = h.error(#"count("Snip", [[#Predicate<Snip> { $0.language == CodingLanguage.swift }]])"#)
        #expect(enumCase.contains("CodingLanguage.swift is a value of the app's type CodingLanguage"), "\(enumCase)")
        let captured = h.error(#"count("Snip", [[let swift = CodingLanguage.swift.rawValue\#n#Predicate<Snip> { $0.language == swift }]])"#)
        #expect(captured.contains("CodingLanguage.swift is a value of the app's type CodingLanguage"), "\(captured)")
        let raw = h.error(#"count("Snip", [[#Predicate<Snip> { $0.language.rawValue == 1 }]])"#)
        #expect(raw.contains("compare 'language' without .rawValue"), "\(raw)")
    }

    /// `let long = #Expression<T, Bool> { ... }`, then `long.evaluate($0)`, as a nested
    /// `#Predicate` reads; an expression of another value is refused saying what is read.
    @Test func anExpressionOfABoolIsReadAsATest() throws {
        let h = try Harness()
        h.run(Self.model)
        #expect(
            h.string(
                #"count("Snippet", [[let longTitle = #Expression<Snippet, Bool> { $0.title.count > 3 }\#n#Predicate<Snippet> { longTitle.evaluate($0) && $0.folder != nil }]])"#
            ) == "3")
        let value = h.error(
            #"count("Snippet", [[let n = #Expression<Snippet, Int> { $0.title.count }\#n#Predicate<Snippet> { n.evaluate($0) > 3 }]])"#)
        #expect(value.contains("#Expression is read as a test of the entity's object"), "\(value)")
    }

    /// A whole `@Query(...)` or `FetchDescriptor(...)` pasted where a predicate goes says
    /// how to give its parts: before, "unexpected character '\\'" and "unexpected '>'".
    @Test func aWholeRequestPastedAsAPredicateSaysWhereItsPartsGo() throws {
        let h = try Harness()
        h.run(Self.model)
        for (text, name) in [
            (#"@Query(filter: #Predicate<Snippet> { $0.folder == nil }, sort: \Snippet.made, order: .reverse)"#, "@Query"),
            (#"FetchDescriptor<Snippet>(predicate: #Predicate { $0.folder == nil })"#, "FetchDescriptor"),
            (#"@FetchRequest(sortDescriptors: []) var items: FetchedResults<Snippet>"#, "@FetchRequest")
        ] {
            let error = h.error("count('Snippet', [==[\(text)]==])")
            #expect(error.contains("\(name) is a whole request: give its #Predicate { ... } as the predicate"), "\(error)")
        }
        // A key that only begins so is still a key.
        h.run(#"entity "Q" { Query = "int64" } Q:new{ Query = 1 } save()"#)
        #expect(h.string(#"count("Q", "Query == 1")"#) == "1")
    }

    /// The search field's predicate every SwiftData tutorial writes,
    /// `searchText.isEmpty || $0.title.localizedStandardContains(searchText)`: the captured
    /// text's emptiness is known as it is read. Before, ".count of something that is not a
    /// relationship".
    @Test func aCapturedStringsIsEmptyIsKnownAsItIsRead() throws {
        let h = try Harness()
        h.run(Self.model)
        let search = "[[#Predicate<Snippet> { searchText.isEmpty || $0.title.localizedStandardContains(searchText) }]]"
        #expect(h.string("count('Snippet', predicate(\(search), { searchText = '' }))") == "6")
        #expect(h.string("count('Snippet', predicate(\(search), { searchText = 'CAFE' }))") == "1")
        #expect(h.string("count('Snippet', predicate(\(search), { searchText = 'zzz' }))") == "0")
        #expect(
            h.string(
                #"count("Snippet", [[let searchText = "li"\#n#Predicate<Snippet> { !searchText.isEmpty && $0.title.localizedStandardContains(searchText) }]])"#
            ) == "1")
    }
}
