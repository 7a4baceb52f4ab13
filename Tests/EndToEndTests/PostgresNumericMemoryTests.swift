import Foundation
import QuarryTestSupport
import Testing

/// Issue 81, item 9, memory's side: PostgreSQL `numeric`s at the type's bounds. Where a
/// fetch's SQL is refused (`x * 10` past numeric's digits, `x / 2` of a decimal no double
/// holds, `abs(x)` and the other numeric functions of one), `p:matches` on the same row refuses in the same one line, and where the SQL
/// answers, memory answers the same: a differential over the edge values. And a string's
/// count in characters (Swift's `count`), which PostgreSQL cannot count, is refused by
/// name in both, while its UTF-16 length (a format string's `length`) is read in both.
@Suite struct PostgresNumericMemoryTests {
    static let schema = """
        CREATE TABLE nt (id integer PRIMARY KEY, x numeric, s text);
        INSERT INTO nt VALUES (1, '1e131071', '👍🏽ok'), (2, '1e-16383', 'abc'), (3, '-1e131071', NULL), (4, '0.5', '𝒳y'),
          (5, '0', ''), (6, '-2.25', 'hello'), (7, NULL, 'x');
        """

    @Test func edgeNumericsAnswerOrRefuseAlikeInSQLAndMemory() async throws {
        let sandbox = try Sandbox()
        let url = try await PostgresStoreTests.database("numericmemory", in: sandbox, schema: Self.schema)
        let result = try await sandbox.quarry(
            [
                url, "-e",
                #"""
                -- A refusal from where its words start, after the prefix naming the call.
                local function said(ok, r)
                  if ok then return tostring(r) end
                  local m = tostring(r)
                  local at = m:find("decimal out of range", 1, true) or m:find("a decimal of about", 1, true)
                  return "refused " .. (at and m:sub(at) or m)
                end
                for _, f in ipairs({ "x * 10 > 1", "x / 2 > 0", "x + 1 > 0", "x > 0", "s.length == 6", "s.length == 3",
                    "abs(x) > 0", "sqrt(x) >= 0", "floor(x) > 0", "ceiling(x) > 0", "trunc(x) > 0", "ln(x) > 0", "log(x) > 0", "exp(x) > 0" }) do
                  local p = predicate(f)
                  for id = 1, 7 do
                    local o = nt:get(id)
                    local sql = said(pcall(count, "nt", predicate("(" .. f .. ") AND id == %@", id)))
                    if sql == "1" then sql = "true" elseif sql == "0" then sql = "false" end
                    local memory = said(pcall(function() return p:matches(o) end))
                    print(f, id, sql, memory)
                  end
                end
                print(pcall(count, "nt", [[#Predicate<nt> { $0.s.count == 3 }]]))
                local q = predicate([[#Predicate<nt> { $0.s.count == 3 }]])
                print(pcall(function() return q:matches(nt:get(2)) end))
                """#
            ], timeout: 600)
        #expect(result.status == 0, "\(result)")
        var refused = 0
        var answered = 0
        for line in result.lines.dropLast(2) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4 else {
                Issue.record("not a row of four fields: \(line)")
                continue
            }
            let (sql, memory) = (fields[2], fields[3])
            if sql.hasPrefix("refused") {
                refused += 1
                #expect(memory == sql, "\(fields[0]) on row \(fields[1]): SQL \(sql), memory \(memory)")
                #expect(sql.contains("decimal"), "\(line)")
            } else {
                answered += 1
                #expect(memory == sql, "\(fields[0]) on row \(fields[1]): SQL \(sql), memory \(memory)")
            }
        }
        // 1e131071 * 10 and -1e131071 * 10 past numeric; 1e±131071 and 1e-16383 as doubles,
        // in `/` and in each of the eight numeric functions.
        #expect(refused >= 5 + 8 * 3 && answered >= 30 + 8 * 4, "\(refused) refused, \(answered) answered\n\(result)")
        for line in result.lines.suffix(2) {
            #expect(line.hasPrefix("false") && line.contains("'s.count' counts the string 's' in characters"), "\(result)")
        }
    }
}
