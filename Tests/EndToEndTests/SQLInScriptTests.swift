import Foundation
import Testing

/// SQL written where a script's Lua goes (`-e 'select 1'`, a pasted statement in piped
/// input): scripts stay Lua, and the error names the two ways SQL runs from one, where
/// Lua alone said "syntax error near '1'".
@Suite struct SQLInScriptTests {
    @Test func aStatementInAScriptSaysHowSQLRunsThere() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry(["t.db", "-e", #"entity "T" { n = "int64" }; T:new{ n = 1 }; save()"#])
        try #require(made.status == 0, "\(made)")
        let chunk = try await sandbox.quarry(["t.db", "-e", "select count(*) from T"])
        #expect(chunk.status == 1)
        #expect(
            chunk.errorLines == [
                #"(command line):1: syntax error near 'count'; a script is Lua: "#
                    + #"SQL runs there as print(sql("select count(*) from T")), or alone as quarry FILE "select count(*) from T""#
            ], "\(chunk)")
        let piped = try await sandbox.quarry(["t.db", "-"], stdin: "print(count(\"T\"))\n.tables\nSELECT n FROM T WHERE n = \"x\";\n")
        #expect(piped.status == 1)
        #expect(
            piped.errorLines.first?.hasPrefix(
                #"stdin:3: syntax error near 'n'; a script is Lua: SQL runs there as print(sql([[SELECT n FROM T WHERE n = "x"]]))"#)
                == true, "\(piped)")
        // A Lua error that is not SQL is Lua's alone.
        let lua = try await sandbox.quarry(["t.db", "-e", "x = = 1"])
        #expect(lua.errorLines == ["(command line):1: unexpected symbol near '='"], "\(lua)")
    }
}
