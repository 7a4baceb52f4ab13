import Testing

/// `help("update")` suggested `date`, the nearest spelling, and `help("undo")` or
/// `help("commit")` said only "no help": a word from SQL or another shell gets Quarry's
/// way to do it (trial 24).
@Suite struct HelpOtherWordsTests {
    @Test func aWordFromElsewhereGetsTheWayItIsDoneHere() throws {
        let h = try Harness()
        let update = h.error(#"help("update")"#)
        #expect(update.contains("updateall") && !update.contains("did you mean"), "\(update)")
        #expect(h.error(#"help("undo")"#).contains("rollback()"))
        #expect(h.error(#"help("COMMIT")"#).contains("save()"))
        #expect(h.error(#"help("join")"#).contains("relate()"))
        // A name with help keeps it, and a typo of one is still matched.
        h.run(#"help("updateall")"#)
        #expect(h.error(#"help("fetchh")"#).contains("did you mean 'fetch'"))
    }
}
