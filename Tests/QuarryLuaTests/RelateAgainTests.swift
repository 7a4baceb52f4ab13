import Foundation
import QuarryShell
import QuarryStore
import Testing

/// Issue 60, item 5: a script that calls `relate()` runs twice. The call is kept (a
/// foreign file's sidecar, a Quarry file's model), so the second run finds it made: the
/// same call is a no-op, named or not, in the same session or after reopening; one that
/// asks a kept name for another link is refused in one line naming the kept one.
@Suite struct RelateAgainTests {
    static let schema = """
        CREATE TABLE urls (id INTEGER PRIMARY KEY, url TEXT, title TEXT);
        CREATE TABLE visits (id INTEGER PRIMARY KEY, url INTEGER, at INTEGER);
        INSERT INTO urls VALUES (1, 'a.example', 'A'), (2, 'b.example', 'B');
        INSERT INTO visits VALUES (1, 1, 10), (2, 1, 11), (3, 2, 12);
        """

    static let script = #"""
        named = relate("visits", "url", "urls", "id", "page")
        unnamed = relate("visits", "at", "urls", "id")
        """#

    /// The relationships `entity` has (both ends' names, sorted), as `.schema` lists them.
    private func relationships(_ h: Harness, _ entity: String) -> String? {
        guard let described = try? h.context.entity(named: entity) else { return nil }
        return described.relationships.map { "\($0.name)->\($0.destination)" }.sorted().joined(separator: ",")
    }

    @Test func theSameRelateAgainIsANoOpInTheSessionAndAfterReopening() throws {
        let path = try foreignFile(Self.schema)
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".quarry")
        }
        let first = try Harness(context: try StoreOpener.open(path))
        first.run(Self.script)
        let names = first.string(#"named .. "," .. unnamed"#)
        let before = relationships(first, "visits")
        let inverses = relationships(first, "urls")
        #expect(names?.hasPrefix("page,") == true, "\(names ?? "nil")")
        // Again in the same session: the same names, no relationship more.
        first.run(Self.script)
        #expect(first.string(#"named .. "," .. unnamed"#) == names)
        #expect(relationships(first, "visits") == before, "\(before ?? "nil")")
        #expect(relationships(first, "urls") == inverses, "\(inverses ?? "nil")")
        let sidecar = try String(contentsOfFile: path + ".quarry", encoding: .utf8)
        #expect(sidecar.components(separatedBy: "\"source\"").count == 3, "\(sidecar)")
        // Reopened with its sidecar, which replays both: the script runs as it did.
        let second = try Harness(context: try StoreOpener.open(path))
        second.run(Self.script)
        #expect(second.string(#"named .. "," .. unnamed"#) == names)
        #expect(relationships(second, "visits") == before)
        #expect(relationships(second, "urls") == inverses)
        #expect(second.string(#"visits:get(3).page.title"#) == "B")
        #expect(try String(contentsOfFile: path + ".quarry", encoding: .utf8) == sidecar)
    }

    @Test func aRelateThatAsksAKeptNameForAnotherLinkIsRefusedNamingIt() throws {
        let path = try foreignFile(Self.schema)
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".quarry")
        }
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(Self.script)
        let sidecar = try String(contentsOfFile: path + ".quarry", encoding: .utf8)
        let other = h.error(#"relate("visits", "at", "urls", "id", "page")"#)
        #expect(other.contains("'page' is kept as visits.page (url → urls.id"), "\(other)")
        #expect(!other.contains("\n"), "\(other)")
        let inverse = h.error(#"relate("visits", "url", "urls", "id", "page", "hits")"#)
        #expect(inverse.contains("'page' is kept as visits.page"), "\(inverse)")
        // Nothing changed: the kept link reads as before, the sidecar is as it was.
        #expect(h.string("visits:get(3).page.title") == "B")
        #expect(try String(contentsOfFile: path + ".quarry", encoding: .utf8) == sidecar)
    }

    /// On a file Quarry made, relate() is kept in its model: a second run, in the session
    /// or after reopening, is a no-op too.
    @Test func onAQuarryFileTheSameRelateAgainIsANoOp() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-relate-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try Harness(context: try StoreOpener.open(path))
        first.run(
            #"""
            entity "Airline" { code = "string", name = "string" }; entity "Gate" { code = "string" }
            entity "Flight" { carrier = "string", gate_code = "string" }
            Airline:new{ code = "UA", name = "United" }; Gate:new{ code = "B4" }; Flight:new{ carrier = "UA", gate_code = "B4" }; save()
            a = relate("Flight", "carrier", "Airline", "code", "airline"); b = relate("Flight", "gate_code", "Gate", "code")
            """#)
        let names = first.string(#"a .. "," .. b"#)
        let before = relationships(first, "Flight")
        first.run(#"a = relate("Flight", "carrier", "Airline", "code", "airline"); b = relate("Flight", "gate_code", "Gate", "code")"#)
        #expect(first.string(#"a .. "," .. b"#) == names)
        #expect(relationships(first, "Flight") == before)
        let second = try Harness(context: try StoreOpener.open(path))
        second.run(#"a = relate("Flight", "carrier", "Airline", "code", "airline"); b = relate("Flight", "gate_code", "Gate", "code")"#)
        #expect(second.string(#"a .. "," .. b"#) == names)
        #expect(relationships(second, "Flight") == before, "\(relationships(second, "Flight") ?? "nil")")
        #expect(second.string("Flight:first().airline.name") == "United")
        #expect(second.string(#"a .. "," .. b"#) == "airline,gate")
        let other = second.error(#"relate("Flight", "gate_code", "Airline", "code", "airline")"#)
        #expect(other.contains("'airline' is kept as Flight.airline (carrier → Airline.code"), "\(other)")
    }
}
