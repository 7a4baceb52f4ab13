import CLua
import Foundation
import QuarryLua
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import QuarryTestSupport
import Testing

/// A key only a sub-entity declares, named over its parent (`isLimitedEdition` over `Car`
/// in the cars store, issue #27 part 3): Quarry answers as the contract says, notes once
/// per entity and key that Core Data refuses such a fetch, and the Swift export refuses it
/// for that reason instead of writing code that would raise in the app.
@Suite struct SubentityKeyNoteTests {
    @Test func quarryAnswersNotesOnceAndSwiftRefuses() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let console = ConsoleAndFailureTests.RecordingConsole()
        let runtime = try QuarryRuntime(context: try StoreOpener.open(path), console: console, swiftReader: InProcessSwiftReader())
        let failure = runtime.run(
            """
            limited = count("Car", "isLimitedEdition == YES")
            assert(#fetch("Car", "isLimitedEdition == YES") == limited)
            assert(#fetch{ "Car", sort = { "isLimitedEdition", "-maker" } } == count("Car"))
            assert(count("SportCar", "isLimitedEdition == YES") == limited)
            assert(count("ExpensiveSportCar", "isLimitedEdition == YES") == limited)
            plain = count("Car", "maker != nil")
            code = predicate("isLimitedEdition == YES OR maker != nil"):swift("Car")
            subcode = predicate("isLimitedEdition == YES"):swift("ExpensiveSportCar")
            """, chunkName: "=t")
        #expect(failure == nil, "\(failure?.message ?? "")")
        func note(_ entity: String) -> String {
            "note: 'isLimitedEdition' is a key of \(entity)'s sub-entities only: Quarry answers it (nil on \(entity)'s own rows), but Core Data refuses such a fetch (keypath not found in entity)"
        }
        // Once per entity, though asked three times over Car (predicate, sort); never over
        // ExpensiveSportCar, which declares it.
        #expect(console.notes == [note("Car"), note("SportCar")], "\(console.notes)")
        let code = global(runtime, "code")
        #expect(
            code == "// Core Data refuses this predicate over Car: 'isLimitedEdition' is a key of its sub-entities only (keypath not found in entity)"
        )
        let subcode = global(runtime, "subcode")
        #expect(subcode.contains("#Predicate<ExpensiveSportCar> { expensiveSportCar in expensiveSportCar.isLimitedEdition == true }"), "\(subcode)")
        #expect(global(runtime, "limited") != "0")
    }

    private func global(_ runtime: QuarryRuntime, _ name: String) -> String {
        _ = runtime.run("__g = tostring(\(name))", chunkName: "=t")
        lua_getglobal(runtime.state, "__g")
        defer { lua_settop(runtime.state, -2) }
        return lua_tolstring(runtime.state, -1, nil).map { String(cString: $0) } ?? ""
    }
}
