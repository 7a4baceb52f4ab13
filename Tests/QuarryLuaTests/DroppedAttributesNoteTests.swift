import Foundation
import QuarryLua
import QuarryPredicates
import QuarryShell
import QuarrySwiftInput
import QuarryTestSupport
import Testing

/// Redefining an entity without some of its attributes drops them with their columns (the
/// contract's in-place migration); a note names each and how many values it held, so a
/// typo or a table of options read as the definition does not lose data unsaid.
@Suite struct DroppedAttributesNoteTests {
    @Test func aRedefinitionNamesWhatItDropsAndHowManyValuesWentWithIt() throws {
        let console = ConsoleAndFailureTests.RecordingConsole(showsProgress: false)
        let runtime = try QuarryRuntime(context: try StoreOpener.open(nil), console: console, swiftReader: InProcessSwiftReader())
        let failure = runtime.run(
            """
            entity "Item" { name = "string?", note = "string?", n = "int?" }
            Item:new{ name = "a", note = "x" }; Item:new{ name = "b" }
            save()
            entity "Item" { name = "string?", n = "int?" }
            entity "Item" { name = "string?", n = "int?", extra = "bool?" }
            entity "Item" { extra = "bool?" }
            assert(count("Item") == 2)
            """)
        #expect(failure == nil, "\(failure?.message ?? "")")
        #expect(
            console.notes == [
                "note: entity Item: dropped attribute note (1 value) with its column",
                "note: entity Item: dropped attributes n (0 values), name (2 values) with their columns"
            ], "\(console.notes)")
    }

    /// A rename keeps the values under the new name: no note says they were dropped
    /// (found by review).
    @Test func aRenameDropsNothing() throws {
        let console = ConsoleAndFailureTests.RecordingConsole(showsProgress: false)
        let runtime = try QuarryRuntime(context: try StoreOpener.open(nil), console: console, swiftReader: InProcessSwiftReader())
        let failure = runtime.run(
            """
            entity "Item" { name = "string?" }
            Item:new{ name = "a" }; save()
            entity "Item" { title = { "string?", renamedFrom = "name" } }
            assert(Item:first().title == "a")
            """)
        #expect(failure == nil, "\(failure?.message ?? "")")
        #expect(console.notes.isEmpty, "\(console.notes)")
        // A renamedFrom that renames nothing (its new name exists already) drops the old one.
        let again = runtime.run(
            """
            entity "Item" { title = "string?", name = "string?" }; Item:first().name = "n"; save()
            entity "Item" { name = { "string?", renamedFrom = "title" } }
            """)
        #expect(again == nil, "\(again?.message ?? "")")
        #expect(console.notes == ["note: entity Item: dropped attribute title (1 value) with its column"], "\(console.notes)")
    }

    /// A migration that makes an attribute required fills its nils with the default, and
    /// objects in use show the filled value (they kept showing nil: found by review).
    @Test func objectsInUseTakeTheDefaultAMigrationFilledIn() throws {
        let console = ConsoleAndFailureTests.RecordingConsole(showsProgress: false)
        let runtime = try QuarryRuntime(context: try StoreOpener.open(nil), console: console, swiftReader: InProcessSwiftReader())
        let failure = runtime.run(
            """
            entity "Item" { name = "string?", n = "int?" }
            local a, b = Item:new{ name = "a" }, Item:new{ name = "b", n = 2 }; save()
            entity "Item" { name = "string?", n = { "int", default = 5 } }
            assert(a.n == 5, tostring(a.n)); assert(b.n == 2, tostring(b.n))
            assert(count("Item", "n == 5") == 1)
            """)
        #expect(failure == nil, "\(failure?.message ?? "")")
    }

    @Test func aRefusedMigrationSaysNothingOfDropping() throws {
        let console = ConsoleAndFailureTests.RecordingConsole(showsProgress: false)
        let runtime = try QuarryRuntime(context: try StoreOpener.open(nil), console: console, swiftReader: InProcessSwiftReader())
        let failure = runtime.run(
            """
            entity "Item" { name = "string?", note = "string?" }
            Item:new{ name = "a", note = "x" }
            entity "Item" { name = "string?" }
            """)
        #expect(failure?.message.contains("unsaved changes") == true, "\(failure?.message ?? "no failure")")
        #expect(console.notes.isEmpty, "\(console.notes)")
    }
}
