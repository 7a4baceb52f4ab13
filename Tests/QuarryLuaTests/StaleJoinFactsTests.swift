import QuarryLua
import QuarryPredicates
import QuarryStore
import Testing

/// A live result's joins drop their one-row guard only while the matched column holds
/// each value once; a save that makes that untrue must not leave the result counting a
/// row twice (it once kept the facts it was compiled with: 2 where a fresh count gave 1).
struct StaleJoinFactsTests {
    @Test func aSaveThatRepeatsAMatchedValueIsSeenByLiveResults() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Flight" { dest = "string" }; entity "Port" { code = "string", name = "string" }
            Flight:new{ dest = "A" }; Port:new{ code = "A", name = "alpha" }; save()
            relate("Flight", "dest", "Port", "code", "destination")
            r = fetch("Flight", "destination.name == 'alpha' OR destination.name == 'alphb'")
            assert(#r == 1)
            Port:new{ code = "A", name = "alphb" }; save()
            """#)
        #expect(h.string(#"#fetch("Flight", "destination.name == 'alpha' OR destination.name == 'alphb'")"#) == "1")
        #expect(h.string("#r") == "1")
        #expect(h.string(#"count("Flight", "destination.name == 'alpha' OR destination.name == 'alphb'")"#) == "1")
    }
}
