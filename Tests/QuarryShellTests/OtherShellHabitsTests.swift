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

/// psql's transaction statements get the way here, and nothing else does (trial 26).
@Suite struct TransactionHabitsTests {
    @Test func psqlsTransactionStatementsAreAnswered() {
        for line in ["BEGIN;", "begin", "BEGIN WORK;", "start transaction", "COMMIT;", "end", "ROLLBACK;", "abort", "SAVEPOINT a;"] {
            #expect(OtherShellHabits.transaction(line)?.hasPrefix("psql's ") == true, "\(line)")
        }
        for line in ["rollback()", "begin = 5", "BEGIN ISOLATION LEVEL x y", "commit(1)", "start", "x = 1", ""] {
            #expect(OtherShellHabits.transaction(line) == nil, "\(line)")
        }
    }

    @Test func psqlsShowReadsASettingAndMySQLsListingIsAnswered() {
        #expect(SQLAtPrompt.showSetting("SHOW timezone;") == "SHOW timezone")
        #expect(SQLAtPrompt.showSetting("show search_path") == "show search_path")
        #expect(SQLAtPrompt.showSetting("SHOW TABLES") == nil && SQLAtPrompt.showSetting("SHOW COLUMNS FROM t") == nil)
        #expect(SQLAtPrompt.showSetting("SHOW") == nil && SQLAtPrompt.showSetting("SHOW x; DROP TABLE t") == nil)
        guard case .answer(let set) = SQLAtPrompt.reading("SET TIME ZONE 'UTC';") else {
            Issue.record("SET is answered")
            return
        }
        #expect(set.contains("ALTER ROLE") && set.contains("options=-c"), "\(set)")
    }

    /// psql's `\gx` at a statement's end sends it, as ';' does; PostgreSQL was given the
    /// backslash and refused it (trial 26).
    @Test func psqlsClosingGoIsLeftOut() {
        #expect(SQLAtPrompt.chunk(#"select 1 \gx"#) == SQLAtPrompt.chunk("select 1"))
        #expect(SQLAtPrompt.chunk(#"select 1;\g "#) == SQLAtPrompt.chunk("select 1"))
        #expect(SQLAtPrompt.chunk(#"select 'a\g'"#) != SQLAtPrompt.chunk("select 'a"))
    }
}
