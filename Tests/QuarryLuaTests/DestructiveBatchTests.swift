import Foundation
import QuarryLua
import Testing

/// updateall and deleteall without a predicate ask the session's question first, and only
/// when the session has one to ask (an interactive prompt): a script never asks (issue 80).
@Suite struct DestructiveBatchTests {
    @Test func withoutAPredicateTheQuestionDecidesAndWithOneNothingIsAsked() throws {
        let h = try Harness()
        h.run(#"entity "Note" { text = "string" }; for i = 1, 3 do Note:new{ text = "n" .. i } end; save()"#)
        var asked: [String] = []
        var answer = false
        h.runtime.settings.confirm = { question in
            asked.append(question)
            return answer
        }
        #expect(h.string("Note:deleteall()") == "0")
        #expect(h.string("Note:updateall(nil, {}, { text = 'x' })") == "0")
        #expect(asked == ["delete all 3 rows of Note?", "update all 3 rows of Note?"])
        #expect(h.string(#"count("Note", "text == 'x'")"#) == "0" && h.string(#"count("Note")"#) == "3")
        // A predicate names the rows: nothing is asked.
        #expect(h.string(#"Note:deleteall("text == %@", { "n1" })"#) == "1")
        #expect(asked.count == 2)
        answer = true
        #expect(h.string("Note:updateall(nil, {}, { text = 'x' })") == "2")
        #expect(h.string("Note:deleteall()") == "2")
        #expect(asked.count == 4 && h.string(#"count("Note")"#) == "0")
        // No rows: nothing to ask about.
        #expect(h.string("Note:deleteall()") == "0" && asked.count == 4)
        // Without a question (a script), every row goes at once.
        h.runtime.settings.confirm = nil
        h.run(#"Note:new{ text = "a" }; save()"#)
        #expect(h.string("Note:deleteall()") == "1")
    }
}
