import Testing

/// `ipairs(r)` goes over the objects `r` held when the loop began, as a loop over Core
/// Data's `fetchedObjects` array does: a loop whose changes take objects out of the live
/// results (or move them within) skips none and visits none twice. Before, each change
/// re-ran the results under the loop, and it visited every other object.
@Suite struct ResultsWalkTests {
    static let items = """
        entity "Item" { n = "int64", g = "int64", done = "bool" }
        for i = 1, 450 do Item:new{ n = i, g = i % 3, done = false } end
        save()
        """

    /// Counts the loop's visits and distinct objects, as "visits,distinct".
    static func loop(_ results: String, _ body: String) -> String {
        """
        (function()
          local r = \(results)
          local visits, seen, distinct = 0, {}, 0
          for _, it in ipairs(r) do
            visits = visits + 1
            if not seen[it] then seen[it] = true; distinct = distinct + 1 end
            \(body)
          end
          return visits .. "," .. distinct
        end)()
        """
    }

    @Test func changingObjectsOutOfTheResultsSkipsNone() throws {
        let h = try Harness()
        h.run(Self.items)
        // Across batches (450 rows, batches of 200), unsaved.
        #expect(h.string(Self.loop(#"fetch("Item", "done == false")"#, "it.done = true")) == "450,450")
        #expect(h.string(#"count("Item", "done == true")"#) == "450")
        // The live results show the change once the loop is over.
        #expect(h.string(#"#fetch("Item", "done == false")"#) == "0")
        h.run("rollback()")
    }

    /// A loop changing each object of a walk longer than the rows read ahead at once
    /// (2,048) reads on, once something changed, from the rows it had and then new windows
    /// of rows (`FetchResults.walksSavedRows`): each object once, each change kept, a
    /// column first read after the first change read right, and the save writes them all.
    @Test func changingEachObjectOfALongWalkVisitsEachOnce() throws {
        let h = try Harness()
        h.run(#"entity "Item" { n = "int64", g = "int64" } for i = 1, 5000 do Item:new{ n = i, g = i % 7 } end save()"#)
        let sum = (1...5_000).reduce(0) { $0 + $1 + $1 % 7 }
        #expect(h.string(Self.loop(#"fetch("Item")"#, "if it.n > 1 then it.n = it.n + it.g else it.n = it.n + 1 end")) == "5000,5000")
        let total = #"(function() local s = 0 for _, it in ipairs(fetch("Item")) do s = s + it.n end return s end)()"#
        #expect(h.string(total) == String(sum))
        h.run("save()")
        #expect(h.string(total) == String(sum))
        #expect(h.string(#"count("Item", "n == 1")"#) == "0")
    }

    @Test func deletingEveryObjectOfTheResultsDeletesThemAll() throws {
        let h = try Harness()
        h.run(Self.items)
        #expect(h.string(Self.loop(#"fetch("Item", "n > 100")"#, "it:delete()")) == "350,350")
        h.run("save()")
        #expect(h.string(#"count("Item")"#) == "100")
    }

    @Test func movingObjectsWithinASortedResultVisitsEachOnce() throws {
        let h = try Harness()
        h.run(Self.items)
        // Each visited object moves to the end of the order.
        #expect(h.string(Self.loop(#"fetch{ "Item", sort = "n" }"#, "it.n = it.n + 1000")) == "450,450")
        #expect(h.string(#"fetch{ "Item", sort = "n" }[1].n"#) == "1001")
    }

    @Test func aLoopBegunWithUnsavedChangesWalksThemAsTheyWere() throws {
        let h = try Harness()
        h.run(Self.items)
        // Unsaved before the loop: ten objects left, one new came in.
        h.run(#"for _, it in ipairs(fetch("Item", "n <= 10")) do it.done = true end; Item:new{ n = 0, done = false }"#)
        #expect(h.string(#"#fetch("Item", "done == false")"#) == "441")
        #expect(h.string(Self.loop(#"fetch("Item", "done == false")"#, "it.done = true")) == "441,441")
        #expect(h.string(#"count("Item", "done == false")"#) == "0")
    }

    @Test func aSaveInsideTheLoopGoesOnOverTheResultsAsTheyAre() throws {
        let h = try Harness()
        h.run(Self.items)
        // A save changed the saved rows the walk was reading: it goes on over the results as
        // they are, so it ends and visits no object twice (its walk is the live one's).
        let answer = h.string(Self.loop(#"fetch("Item", "n <= 20")"#, "it.n = it.n + 1000; save()")) ?? ""
        let parts = answer.split(separator: ",")
        #expect(parts.count == 2 && parts[0] == parts[1], "\(answer)")
    }

    @Test func objectsAndSectionsWalkAsTheyWere() throws {
        let h = try Harness()
        h.run(Self.items)
        // r:objects(), flat and sectioned.
        #expect(
            h.string(#"(function() local n = 0; for o in fetch("Item", "done == false"):objects() do n = n + 1; o.done = true end; return n end)()"#)
                == "450")
        h.run("rollback()")
        #expect(
            h.string(
                #"(function() local n = 0; for o in fetch{ "Item", predicate = "done == false", section = "g", sort = "n" }:objects() do n = n + 1; o.done = true end; return n end)()"#
            ) == "450")
        h.run("rollback()")
        // Sections and their objects: a section emptied by the loop is still walked past,
        // and the next one is not skipped.
        #expect(
            h.string(
                #"""
                (function()
                  local n, sections = 0, 0
                  for _, sec in ipairs(fetch{ "Item", predicate = "done == false", section = "g", sort = "n" }) do
                    sections = sections + 1
                    for _, o in ipairs(sec) do n = n + 1; o.done = true end
                  end
                  return sections .. "," .. n
                end)()
                """#) == "3,450")
        #expect(h.string(#"count("Item", "done == true")"#) == "450")
    }
}
