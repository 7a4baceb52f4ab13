import Foundation
import Testing

/// What reaches the DB file: a new process sees exactly what was saved, never what was
/// not, and the model travels with the file.
@Suite struct PersistenceTests {
    /// Prints every Item as `id title n when`, in id order.
    static let dump = """
        for _, o in ipairs(fetch{ "Item", sort = { "n" } }) do
          print(o:objectID(), o.title, o.n, o.when)
        end
        """

    @Test func savedRowsAndTheModelSurviveANewProcess() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "store.db", "-e",
            itemSchema + """

                Item:new{ title = "a", n = 1 }
                Item:new{ title = "b", n = 2, when = date("2024-01-22T16:26:12Z") }
                local s = save()
                print(s.inserted, s.updated, s.deleted)
                """
        ])
        #expect(made.status == 0, "\(made)")
        #expect(made.stdout == "2\t0\t0\n")

        // No `entity` call here: the model is read back from the file.
        let reopened = try await sandbox.quarry(["store.db", "-e", Self.dump])
        #expect(reopened.status == 0, "\(reopened)")
        #expect(reopened.lines == ["Item/1\ta\t1\tnil", "Item/2\tb\t2\t2024-01-22T16:26:12Z"])
    }

    @Test func unsavedChangesAreNeverWritten() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry(["store.db", "-e", itemSchema + #"; Item:new{ title = "a", n = 1 }; save()"#])
        let script = try await sandbox.quarry([
            "store.db", "-e",
            """
            Item:new{ title = "unsaved", n = 2 }
            Item:get(1).title = "changed"
            print(haschanges())
            """
        ])
        #expect(script.status == 0, "\(script)")
        #expect(script.stdout == "true\n")
        let reopened = try await sandbox.quarry(["store.db", "-e", Self.dump])
        #expect(reopened.lines == ["Item/1\ta\t1\tnil"], "\(reopened)")
    }

    /// The contract's central promise: a script that saves three rows, then changes one and
    /// fails before saving again, leaves the three rows exactly as saved.
    @Test func anErrorBeforeSaveLeavesTheStoreUntouched() async throws {
        let sandbox = try Sandbox()
        try sandbox.write(
            "fails.lua",
            itemSchema + """

                Item:new{ title = "a", n = 1 }
                Item:new{ title = "b", n = 2 }
                Item:new{ title = "c", n = 3 }
                save()
                local b = Item:first("title == %@", "b")
                b.title = "changed"
                b.n = 20
                Item:get(1):delete()
                Item:new{ title = "d", n = 4 }
                error("stopped before save")
                save()
                """)
        let result = try await sandbox.quarry(["store.db", "fails.lua"])
        #expect(result.status == 1, "\(result)")
        #expect(result.errorLines == ["fails.lua:11: stopped before save"], "\(result)")

        let reopened = try await sandbox.quarry(["store.db", "-e", Self.dump + "\nprint(haschanges(), count('Item'))"])
        #expect(reopened.status == 0, "\(reopened)")
        #expect(
            reopened.lines == [
                "Item/1\ta\t1\tnil",
                "Item/2\tb\t2\tnil",
                "Item/3\tc\t3\tnil",
                "false\t3"
            ])
    }

    @Test func aWrongTypeErrorAlsoLeavesTheStoreUntouched() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry(["store.db", "-e", itemSchema + #"; Item:new{ title = "a", n = 1 }; save()"#])
        let result = try await sandbox.quarry(["store.db", "-e", "local o = Item:get(1); o.title = 'b'; o.n = 'abc'; save()"])
        #expect(result.status == 1, "\(result)")
        let reopened = try await sandbox.quarry(["store.db", "-e", Self.dump])
        #expect(reopened.lines == ["Item/1\ta\t1\tnil"], "\(reopened)")
    }

    @Test func updatesAndDeletesPersist() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry([
            "store.db", "-e",
            itemSchema + """

                for i, t in ipairs{ "a", "b", "c" } do Item:new{ title = t, n = i } end
                save()
                """
        ])
        let change = try await sandbox.quarry([
            "store.db", "-e",
            """
            Item:get(2).title = "B"
            Item:get(3):delete()
            Item:new{ title = "d", n = 4 }
            local s = save()
            print(s.inserted, s.updated, s.deleted, haschanges())
            """
        ])
        #expect(change.status == 0, "\(change)")
        #expect(change.stdout == "1\t1\t1\tfalse\n")
        // The new row's ID is the store's choice; titles and numbers are what must persist.
        let reopened = try await sandbox.quarry([
            "store.db", "-e",
            """
            for _, o in ipairs(fetch{ "Item", sort = { "n" } }) do print(o.title, o.n) end
            print(Item:get(1).title, Item:get(2).title)
            """
        ])
        #expect(reopened.lines == ["a\t1", "B\t2", "d\t4", "a\tB"], "\(reopened)")
    }

    @Test func objectIDIsTemporaryUntilSaved() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "store.db", "-e",
            itemSchema + """

                local a = Item:new{ title = "a", n = 1 }
                local b = Item:new{ title = "b", n = 2 }
                print(a:objectID(), b:objectID())
                save()
                print(a:objectID(), b:objectID())
                """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["Item/t1\tItem/t2", "Item/1\tItem/2"])
        let reopened = try await sandbox.quarry(["store.db", "-e", "print(Item:get(2):objectID(), Item:get(2).title)"])
        #expect(reopened.stdout == "Item/2\tb\n", "the ID is stable in a new process: \(reopened)")
    }

    @Test func rollbackDiscardsPendingChanges() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "store.db", "-e",
            itemSchema + """

                local a = Item:new{ title = "a", n = 1 }
                save()
                print(haschanges())
                a.title = "changed"
                Item:new{ title = "extra", n = 2 }
                print(haschanges())
                rollback()
                print(haschanges(), a.title, count("Item"))
                a:delete()
                rollback()
                print(haschanges(), Item:count(), Item:get(1).title)
                local s = save()
                print(s.inserted, s.updated, s.deleted)
                """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["false", "true", "false\ta\t1", "false\t1\ta", "0\t0\t0"])
    }

    /// A failed save (a required attribute missing) writes nothing and keeps the pending
    /// changes, so they can be fixed and saved.
    @Test func failedSaveKeepsPendingChanges() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.quarry([
            "store.db", "-e",
            itemSchema + """

                Item:new{ title = "ok", n = 1 }
                local bad = Item:new{ n = 2 }
                local ok = pcall(save)
                print(ok, haschanges())
                bad.title = "fixed"
                print(save().inserted, haschanges())
                """
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["false\ttrue", "2\tfalse"])
        let reopened = try await sandbox.quarry(["store.db", "-e", Self.dump])
        #expect(reopened.lines == ["Item/1\tok\t1\tnil", "Item/2\tfixed\t2\tnil"], "\(reopened)")
    }

    @Test func valuesRoundTripExactly() async throws {
        let sandbox = try Sandbox()
        let made = try await sandbox.quarry([
            "store.db", "-e",
            itemSchema + """

                Item:new{ title = "日本語 café 🎉", n = math.maxinteger, when = date("2024-01-22T16:26:12Z") }
                Item:new{ title = "", n = math.mininteger }
                Item:new{ title = "line1\\nline2 \\"q\\"", n = 0 }
                save()
                """
        ])
        #expect(made.status == 0, "\(made)")
        let reopened = try await sandbox.quarry([
            "store.db", "-e",
            """
            for _, o in ipairs(fetch{ "Item", sort = { "n" } }) do
              print(string.format("%q", o.title), o.n, math.type(o.n), o.when)
            end
            print(count("Item", "n == %@", math.maxinteger), count("Item", "title == %@", ""),
                  count("Item", "when == %@", date("2024-01-22T16:26:12Z")))
            """
        ])
        #expect(reopened.status == 0, "\(reopened)")
        #expect(
            reopened.lines == [
                "\"\"\t-9223372036854775808\tinteger\tnil",
                "\"line1\\",
                "line2 \\\"q\\\"\"\t0\tinteger\tnil",
                "\"日本語 café 🎉\"\t9223372036854775807\tinteger\t2024-01-22T16:26:12Z",
                "1\t1\t1"
            ], "\(reopened)")
    }

    @Test func redeclaringTheSameEntityKeepsTheData() async throws {
        let sandbox = try Sandbox()
        _ = try await sandbox.quarry(["store.db", "-e", itemSchema + #"; Item:new{ title = "a", n = 1 }; save()"#])
        let again = try await sandbox.quarry(["store.db", "-e", itemSchema + "\n" + Self.dump])
        #expect(again.status == 0, "\(again)")
        #expect(again.lines == ["Item/1\ta\t1\tnil"])
    }
}
