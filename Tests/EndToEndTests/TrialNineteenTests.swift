import Foundation
import QuarryTestSupport
import Testing

/// An app developer's trial on Core Data stores Quarry did not make (a map app's seeded
/// store of cities, locations and nodes, whose to-manys cascade): the moments where an
/// answer was not the whole of what happened, through the real binary.
@Suite struct TrialNineteenTests {
    /// Cities, locations and the nodes both own, as the seeded store lays them out:
    /// deleting a location or a city cascades to its nodes.
    private func places(_ sandbox: Sandbox) async throws {
        let made = try await sandbox.quarry([
            "places.db", "-e",
            """
            entity "City" { name = "string" }
            entity "Location" { latitude = "double" }
            entity "Node" { name = "string",
              inCity = { one = "City", inverse = "nodes" }, inLocation = { one = "Location", inverse = "nodes" } }
            entity "City" { name = "string", nodes = { many = "Node", inverse = "inCity", delete = "cascade" } }
            entity "Location" { latitude = "double", nodes = { many = "Node", inverse = "inLocation", delete = "cascade" } }
            local north, south = City:new{ name = "north" }, City:new{ name = "south" }
            for i = 1, 4 do
              local l = Location:new{ latitude = 20 + i * 2 }
              for j = 1, 3 do Node:new{ name = "n" .. i .. j, inCity = (i <= 2) and south or north, inLocation = l } end
            end
            save()
            """
        ])
        #expect(made.status == 0, "\(made)")
    }

    /// `Location:deleteall("latitude > 26")` answered 72 (the locations) and took the 77
    /// nodes of those locations too by the cascade rule, without a word; and the question
    /// before deleting every city named only the cities. The count stays the entity's
    /// rows, as NSBatchDeleteRequest counts them; a note names what the rules took too,
    /// and the question names the entities the rules reach.
    @Test func aBatchDeleteSaysWhatItsCascadeTookToo() async throws {
        let sandbox = try Sandbox()
        try await places(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["places.db"], columns: 160)
        try await repl.waitForPrompt()
        let deleted = try await repl.enter(#"=Location:deleteall("latitude > 25")"#)
        #expect(deleted.contains("note: the delete rules also deleted 6 rows of Node (cascade)") && deleted.last == "2", "\(deleted.suffix(4))")
        #expect(try await sqlite3Lines(sandbox, "places.db", "SELECT count(*) FROM Node") == ["6"])
        let start = try await repl.screen().count
        try await repl.type("=City:deleteall()")
        try await repl.press("Enter")
        try await repl.waitUntil("the question") {
            $0.count > start && $0.last == "delete all 2 rows of City (its delete rules cascade to Node)? [y/N]"
        }
        try await repl.type("n")
        try await repl.press("Enter")
        let answered = try await repl.waitForPrompt(">", after: start + 1)
        #expect(answered.contains { $0.contains("nothing deleted") }, "\(answered.suffix(4))")
        #expect(try await sqlite3Lines(sandbox, "places.db", "SELECT count(*) FROM Node") == ["6"])
        // A delete that reaches no row through a cascade says nothing more.
        let plain = try await repl.enter(#"=Node:deleteall("name == 'n11'")"#)
        #expect(!plain.contains { $0.contains("delete rules also") }, "\(plain.suffix(4))")
    }

    /// Deleting one city staged its 82 nodes and 77 locations too (the cascade rules), and
    /// `.changes` listed the 160 IDs one a line with no count, scrolling the start away.
    /// A kind of several entities (or many objects) says first how many of each; a long
    /// list goes through the pager as a long table does.
    @Test func changesCountsWhatACascadeStaged() async throws {
        let sandbox = try Sandbox()
        try await places(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["places.db"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter(#"City:first("name == 'south'"):delete()"#)
        let changes = try await repl.enter(".changes")
        #expect(Array(changes.prefix(3)) == ["inserted: none", "updated: none", "deleted: 7 objects (1 City, 6 Node)"], "\(changes)")
        #expect(changes.contains("         City/2"), "\(changes)")
        #expect(changes.filter { $0.hasPrefix("         Node/") }.count == 6, "\(changes)")
        _ = try await repl.enter("rollback()")
        // Objects of one entity, a few: one a line, as before.
        _ = try await repl.enter(#"for _, n in ipairs(fetch("Node", "name BEGINSWITH 'n1'")) do n:delete() end"#)
        let few = try await repl.enter(".changes")
        #expect(few == ["inserted: none", "updated: none", "deleted: Node/1", "         Node/2", "         Node/3"], "\(few)")
    }

    /// A Core Data store of locations whose model declares `latitude` as Float, as the
    /// map app's has it, with the model file beside it (no persistent history).
    private func floatStore(_ sandbox: Sandbox) async throws {
        try FileManager.default.createDirectory(atPath: sandbox.path("Places.xcdatamodel"), withIntermediateDirectories: true)
        _ = try sandbox.write(
            "Places.xcdatamodel/contents",
            """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
                <entity name="Location" representedClassName="Location" syncable="YES">
                    <attribute name="latitude" attributeType="Float" usesScalarValueType="YES"/>
                    <attribute name="longitude" attributeType="Double" usesScalarValueType="YES"/>
                </entity>
            </model>
            """)
        _ = try await sqlite3Lines(
            sandbox, "places.sqlite",
            """
            CREATE TABLE ZLOCATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLATITUDE FLOAT, ZLONGITUDE FLOAT);
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Location', 0, 2);
            INSERT INTO ZLOCATION VALUES (1, 1, 1, 25.013275146484375, 121.3), (2, 1, 1, 22.467643737792969, 120.1);
            """)
    }

    /// The seeded store's model declares `latitude` as Float (`var latitude: Float` in the
    /// class Quarry writes), and a #Predicate of more than two tests captured its constants
    /// as `let value: Double = 22.1`, which swiftc refuses against a Float property
    /// (`binary operator '>' cannot be applied to operands of type 'Float' and 'Double'`);
    /// a sectioned request said `SectionedFetchRequest<Double, Location>`. Both say Float
    /// now, and the predicate compiles against the class Quarry writes.
    @Test func aFloatAttributesConstantsAreFloats() async throws {
        let sandbox = try Sandbox()
        try await floatStore(sandbox)
        let result = try await sandbox.quarry([
            "--model", "Places.xcdatamodel", "places.sqlite", "-e",
            """
            print(predicate("latitude > 22.5 AND latitude < 25.1 AND longitude > 120"):swift("predicate", "Location"))
            print(fetch{ "Location", section = "latitude" }:swift("sectioned"))
            print(Location:swift())
            """
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("let value: Float = 22.5") && lines.contains("let value3: Double = 120.0"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("@SectionedFetchRequest<Float, Location>(") }, "\(lines)")
        #expect(lines.contains("    var latitude: Float"), "\(lines)")
        // The predicate compiles against the class (a stand-in with the same properties) and
        // selects the row Quarry selects.
        let predicate = lines.prefix { !$0.hasPrefix("@SectionedFetchRequest") }.joined(separator: "\n")
        let program = """
            import Foundation
            final class Location { var latitude: Float; var longitude: Double
                init(latitude: Float, longitude: Double) { self.latitude = latitude; self.longitude = longitude } }
            \(predicate)
            let rows = [Location(latitude: 25.013275, longitude: 121.3), Location(latitude: 22.467644, longitude: 120.1)]
            print(try rows.filter { try query.evaluate($0) }.count)
            """
        #expect(try SwiftCompiler.compileAndRun(program) == ["1"], "\(program)")
        let counted = try await sandbox.quarry([
            "--model", "Places.xcdatamodel", "places.sqlite", "-e",
            #"print(count("Location", "latitude > 22.5 AND latitude < 25.1 AND longitude > 120"))"#
        ])
        #expect(counted.stdout == "1\n", "\(counted)")
    }

    /// `.history` on the seeded store, before and after a save, said "no transactions
    /// recorded yet", as if a save would record one; the store keeps no persistent history,
    /// so neither the app's saves nor Quarry's record any.
    @Test func historyOnAStoreWithoutPersistentHistorySaysItKeepsNone() async throws {
        let sandbox = try Sandbox()
        try await floatStore(sandbox)
        let repl = try await TmuxSession(sandbox, arguments: ["--model", "Places.xcdatamodel", "places.sqlite"], columns: 160)
        try await repl.waitForPrompt()
        _ = try await repl.enter("Location:get(1).longitude = 121.5; save()")
        let said = try await repl.enter(".history")
        #expect(said.last?.hasPrefix("no history: this Core Data store keeps no persistent history") == true, "\(said)")
        #expect(try await sqlite3Lines(sandbox, "places.sqlite", "SELECT ZLONGITUDE FROM ZLOCATION WHERE Z_PK = 1") == ["121.5"])
    }
}
