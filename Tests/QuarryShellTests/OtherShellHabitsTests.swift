import Testing

@testable import QuarryShell

/// psql's meta-commands read as the dot-commands that do the same, and `.tables PATTERN`
/// matches as SQLite's LIKE does.
@Suite struct OtherShellHabitsTests {
    @Test func psqlsMetaCommandsBecomeDotCommands() {
        #expect(OtherShellHabits.psql(#"\dt"#) == .command(".tables"))
        #expect(OtherShellHabits.psql(#"  \d track"#) == .command(".schema track"))
        #expect(OtherShellHabits.psql(#"\d"#) == .command(".tables"))
        #expect(OtherShellHabits.psql(#"\q"#) == .command(".quit"))
        #expect(OtherShellHabits.psql(#"\i setup.lua"#) == .command(".read setup.lua"))
        // `\timing` alone turns the timer over, as psql's does; with a word, as said.
        #expect(OtherShellHabits.psql(#"\timing"#) == .command(".timer"))
        #expect(OtherShellHabits.psql(#"\timing off"#) == .command(".timer off"))
        guard case .answer(let unknown) = OtherShellHabits.psql(#"\dn"#) else {
            Issue.record("\\dn is answered")
            return
        }
        #expect(unknown.hasPrefix(#"psql's \dn"#) && unknown.contains(".help"), "\(unknown)")
        // Lua never starts a line with a backslash; anything else is left to Lua.
        #expect(OtherShellHabits.psql("x = 1") == nil && OtherShellHabits.psql(".tables") == nil)
    }

    /// `.backup FILE` gets the way here (the engine seam has no copy to make one with),
    /// as `.dump` and `.indexes` do; Lua given where a script's name goes is told `-e`.
    @Test func backupAndLuaInPlaceOfAScriptAreAnswered() {
        let backup = OtherShellHabits.sqlite3("backup") ?? ""
        #expect(backup.contains(#"sqlite3 FILE ".backup COPY""#) && backup.contains("FILE.quarry"), "\(backup)")
        #expect(BatchRunner.looksLikeLua(#"count("drivers")"#) && BatchRunner.looksLikeLua("x = 1"))
        #expect(!BatchRunner.looksLikeLua("wins.lua") && !BatchRunner.looksLikeLua("scripts/report 2.lua"))
    }

    @Test func likeMatchesAsSQLiteDoes() {
        #expect(OtherShellHabits.like("moz_places", "moz_%") && OtherShellHabits.like("Track", "t%k") && OtherShellHabits.like("ab", "a_"))
        #expect(!OtherShellHabits.like("moz_places", "moz") && !OtherShellHabits.like("abc", "a_") && !OtherShellHabits.like("", "_"))
        #expect(OtherShellHabits.like("", "%") && OtherShellHabits.like("Album", "ALBUM"))
    }
}
