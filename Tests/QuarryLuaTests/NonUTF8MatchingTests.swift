import Foundation
import QuarryShell
import Testing

/// Text that is not UTF-8 (`'caf\xc3'`, `\xff`, `\xc0\xaf`, a lone surrogate) under the
/// string operators and `[c]`/`[d]`: memory (`p:matches`, observers) selects the rows SQL
/// counts. SQLite hands such text to the matching Swift repaired (U+FFFD for each bad
/// sequence); memory matched none of it (issue 81).
@Suite struct NonUTF8MatchingTests {
    @Test func sqlAndMemoryAgree() throws {
        let path = try foreignFile(
            """
            CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
            INSERT INTO t (v) VALUES (CAST(x'636166c3' AS TEXT)), (CAST(x'ff' AS TEXT)), (CAST(x'c0af' AS TEXT)),
              (CAST(x'eda080' AS TEXT)), ('café'), ('caf'), ('CAFE'), (CAST(x'636166ff41' AS TEXT)), (NULL);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(
            #"""
            failures, compared, matched = {}, 0, 0
            local texts = { "caf", "\u{FFFD}", "CAF", "é", "a", "A", "" }
            local operators = { "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "==", "!=", "<" }
            local rows = fetch("t")
            for _, op in ipairs(operators) do
              for _, options in ipairs{ "", "[c]", "[d]", "[cd]" } do
                for _, text in ipairs(texts) do
                  local arg = text
                  if op == "LIKE" then arg = text .. "*" elseif op == "MATCHES" then arg = ".*" .. text .. ".*" end
                  local p = "v " .. op .. options .. " %@"
                  local inSQL = count("t", p, arg)
                  local pr, inMemory = predicate(p, arg), 0
                  for _, o in ipairs(rows) do if pr:matches(o) then inMemory = inMemory + 1 end end
                  compared = compared + 1
                  if inSQL > 0 then matched = matched + 1 end
                  if inSQL ~= inMemory then
                    failures[#failures + 1] = p .. " " .. ("%q"):format(arg) .. ": SQL " .. inSQL .. ", memory " .. inMemory
                  end
                end
              end
            end
            """#)
        #expect(h.string("#failures") == "0", "\(h.string("table.concat(failures, '; ')") ?? "")")
        #expect(h.string("compared") == "224" && Int(h.string("matched") ?? "") ?? 0 > 100)
        // The bad sequences read as U+FFFD: three rows begin with one.
        #expect(h.string(#"count("t", "v BEGINSWITH %@", "\u{FFFD}")"#) == "3")
    }
}
