import Foundation
import QuarryTestSupport
import Testing

/// `quarry App.sqlite` on copies of real Core Data stores, through the binary.
@Suite struct CoreDataTests {
    func copy(_ store: String, into sandbox: Sandbox) throws -> String {
        let source = try CoreDataFixtures.path(store)
        let name = URL(fileURLWithPath: source).lastPathComponent
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: sandbox.path(name + suffix))
        }
        return name
    }

    @Test func anAppsStoreOpensAsItsModelAndStaysAsItWas() async throws {
        let sandbox = try Sandbox()
        let store = try copy("cars/SampleModel_V1.sqlite", into: sandbox)
        let before = try sandbox.listing().map { ($0, try Data(contentsOf: URL(fileURLWithPath: sandbox.path($0)))) }
        let result = try await sandbox.quarry([
            store, "-e",
            #"""
            local names = {}
            for _, e in ipairs(entities()) do names[#names + 1] = e.name end
            print(table.concat(names, ","))
            print(count("Car"), count("SportCar"), #fetch{ "Car", subentities = false })
            print(Car:first("maker == 'McLaren'"):entity().name)
            """#
        ])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["Car,ExpensiveSportCar,Person,SportCar", "125\t10\t115", "ExpensiveSportCar"], "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let after = try sandbox.listing().map { ($0, try Data(contentsOf: URL(fileURLWithPath: sandbox.path($0)))) }
        #expect(after.map(\.0) == before.map(\.0) && zip(after, before).allSatisfy { $0.1 == $1.1 }, "the store's folder changed")
    }

    /// The model decoded from the store's cache is kept in the user's cache folder and
    /// read back at the next open (the file is not written again); a damaged file is
    /// decoded anew and replaced; an empty QUARRY_CACHE_DIR keeps nothing.
    @Test func aDecodedModelIsKeptAndReadBackByTheNextRun() async throws {
        let sandbox = try Sandbox()
        let store = try copy("cars/SampleModel_V1.sqlite", into: sandbox)
        let folder = sandbox.path("cache/models")
        let environment = ["QUARRY_CACHE_DIR": sandbox.path("cache")]
        let script = #"print(count("Car"), count("SportCar"))"#
        func run() async throws -> [String] {
            let result = try await sandbox.quarry([store, "-e", script], environment: environment)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
            return result.lines
        }
        #expect(try await run() == ["125\t10"])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.count == 1 && names[0].hasSuffix(".model"), "\(names)")
        let file = folder + "/" + (names.first ?? "")
        let old = Date(timeIntervalSince1970: 1_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file)
        #expect(try await run() == ["125\t10"])
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date == old, "a hit writes nothing")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[bytes.count - 3] ^= 0x55
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file)
        #expect(try await run() == ["125\t10"])
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date != old, "a damaged file is replaced")
        let off = try await sandbox.quarry([store, "-e", script], environment: ["QUARRY_CACHE_DIR": "", "HOME": sandbox.path("nohome")])
        #expect(off.status == 0 && off.lines == ["125\t10"], "\(off)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("nohome")), "an empty QUARRY_CACHE_DIR keeps nothing")
    }

    @Test func aStoreWithoutAModelSaysItsNamesWereInferredOrTakesOne() async throws {
        let sandbox = try Sandbox()
        let recipes = try copy("recipes/Recipes.sqlite", into: sandbox)
        let inferred = try await sandbox.quarry([recipes, "-e", #"print(count("Recipe"), count("Ingredient", "recipe.name != nil"))"#])
        #expect(inferred.status == 0 && inferred.lines == ["7\t31"], "\(inferred)")
        #expect(inferred.errorLines.count == 1 && inferred.errorLines[0].hasPrefix("note: ") && inferred.stderr.contains("inferred"), "\(inferred)")

        let journal = try copy("surfjournal/SurfJournalModel.sqlite", into: sandbox)
        let model = try CoreDataFixtures.path("surfjournal/SurfJournalModel.xcdatamodeld")
        let given = try await sandbox.quarry(["--model", model, journal, "-e", #"print(count("JournalEntry", "rating >= 4"))"#])
        #expect(given.status == 0 && given.stderr.isEmpty, "\(given)")
        #expect(Int(given.lines.first ?? "") ?? 0 > 0, "\(given)")

        // A model that maps none of the store's entities gives way to inferred names, saying so.
        let other = try CoreDataFixtures.path("cars/SampleModel.xcdatamodeld")
        let mismatched = try await sandbox.quarry(["--model", other, journal, "-e", #"print(count("JournalEntry"))"#])
        #expect(mismatched.status == 0 && (Int(mismatched.lines.first ?? "") ?? 0) > 0, "\(mismatched)")
        #expect(
            mismatched.errorLines.count == 1 && mismatched.stderr.contains("matches none of the store's entities (JournalEntry)"), "\(mismatched)")

        let notAModel = try await sandbox.quarry(["--model", sandbox.path("missing.momd"), journal, "-e", "print(1)"])
        #expect(notAModel.status == 1 && notAModel.errorLines.count == 1 && notAModel.stderr.contains("missing.momd"), "\(notAModel)")
    }

    /// Issue 81: `.schema` of a parent lists its sub-entities' keys (a predicate over it may
    /// name them) and says as a comment whose they are, so each line still loads; a
    /// sub-entity's own listing and keys the parent has are left as they were.
    @Test func schemaOfAParentMarksTheKeysOnlySubentitiesHave() async throws {
        let sandbox = try Sandbox()
        let books = try copy("books2/SampleModel2_V2.sqlite", into: sandbox)
        let book = try await sandbox.quarry([books], stdin: ".schema Book\n.schema GraphicNovel\n")
        #expect(book.status == 0 && book.stderr.isEmpty, "\(book)")
        let marked = book.lines.filter { $0.contains(" only") }
        #expect(marked == [#"  isBlackAndWhite = "bool?",  -- GraphicNovel only"#], "\(book)")
        #expect(book.lines.contains(#"  title = "string","#), "\(book)")
        #expect(book.lines.contains(#"  isBlackAndWhite = { "bool", default = false },"#), "GraphicNovel's own: \(book)")

        let screenTime = try copy("screentime/RMAdminStore-Local.sqlite", into: sandbox)
        let organization = try await sandbox.quarry([screenTime], stdin: ".schema CoreOrganization\n")
        #expect(organization.status == 0, "\(organization)")
        #expect(
            organization.lines.filter { $0.contains(" only") } == [
                #"  settings = { one = "CoreOrganizationSettings", inverse = "organization", delete = "cascade" },  -- CloudOrganization, FamilyOrganization, LocalOrganization only"#,
                #"  askForTimeRequestResponses = { many = "AskForTimeRequestResponse", inverse = "familyOrganization", delete = "cascade" },  -- FamilyOrganization only"#
            ], "\(organization)")
    }

    @Test func aSaveIsWrittenAsCoreDataWouldAndReadBack() async throws {
        let sandbox = try Sandbox()
        let store = try copy("cars/SampleModel_V1.sqlite", into: sandbox)
        let saved = try await sandbox.quarry([
            store, "-e",
            #"""
            local c = SportCar:new{ maker = "Ferrari", model = "F40", numberPlate = "Q-9", markedForDeletionAsOf = date("2024-01-02T03:04:05Z") }
            c.owner = Person:get("Person/2")
            save()
            print(c:objectID())
            """#
        ])
        #expect(saved.status == 0 && saved.lines == ["SportCar/126"], "\(saved)")
        let read = try await sandbox.quarry([
            "--readonly", store, "-e",
            #"local c = Car:get("Car/126"); print(c:entity().name, c.maker, tostring(c.markedForDeletionAsOf), c.owner:objectID())"#
        ])
        #expect(read.lines == ["SportCar\tFerrari\t2024-01-02T03:04:05Z\tPerson/2"], "\(read)")
        let check = try await sandbox.run(
            HostileFileTests.sqlite3,
            [
                sandbox.path(store),
                "SELECT Z_ENT, Z_OPT, ZMARKEDFORDELETIONASOF FROM ZCAR WHERE Z_PK = 126; SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car'; PRAGMA integrity_check"
            ])
        #expect(check.lines == ["2|1|725857445", "126", "ok"], "\(check)")
    }

    /// `--readonly` on a store whose rows live in its `-wal`, in a folder Quarry may not
    /// write: every row is read (from a private copy), with a note saying so, and neither
    /// the folder nor its files change.
    @Test func readonlyInAFolderNobodyMayWriteReadsTheWAL() async throws {
        let sandbox = try Sandbox()
        let folder = sandbox.path("ro")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = try CoreDataFixtures.path("surfjournal/SurfJournalModel.sqlite")
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: source + suffix, toPath: folder + "/store.sqlite" + suffix) }
        // What plain SQLite reads from the store with its -wal (in a writable copy).
        let check = sandbox.path("check.sqlite")
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: source + suffix, toPath: check + suffix) }
        let expected = try await sandbox.run(
            URL(fileURLWithPath: "/usr/bin/sqlite3"), [check, "SELECT count(*) FROM ZJOURNALENTRY"], environment: sandbox.environment())
        #expect(expected.status == 0 && (Int(expected.lines.first ?? "") ?? 0) > 0, "\(expected)")

        let files = ["store.sqlite", "store.sqlite-wal"]
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)) }
        for file in files { try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder + "/" + file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: sandbox.directory.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder) }
        var arguments = ["--readonly", folder + "/store.sqlite", "-e", #"print(count("JournalEntry"))"#]
        var executable = sandbox.binary
        if getuid() == 0 {
            // Root may write anywhere: drop to nobody so the folder's mode holds.
            let setpriv = URL(fileURLWithPath: "/usr/bin/setpriv")
            try #require(FileManager.default.isExecutableFile(atPath: setpriv.path), "setpriv (util-linux) is needed to drop root for this test")
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", sandbox.binary.path] + arguments
            executable = setpriv
        }
        let result = try await sandbox.run(executable, arguments, environment: sandbox.environment(["TMPDIR": "/tmp"]))
        #expect(result.status == 0 && result.lines == [expected.lines.first ?? "?"], "\(result)")
        // (The store carries no model, so a second note says its names were inferred.)
        #expect(result.errorLines.allSatisfy { $0.hasPrefix("note: ") } && result.errorLines.contains { $0.contains("private copy") }, "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == files)
        #expect(try files.map { try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)) } == before)

        // Ended by SIGTERM while running, it still removes its private copy.
        let temporary = sandbox.path("tmp")
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: temporary)
        let looping = [executable.path] + arguments.dropLast() + ["while true do end"]
        let quoted = looping.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let killed = try await sandbox.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", quoted.joined(separator: " ") + " & p=$!; sleep 2; kill -TERM $p; wait $p; echo status $?"],
            environment: sandbox.environment(["TMPDIR": temporary]))
        #expect(killed.lines == ["status 143"], "\(killed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "the private copy was left behind")
    }
}
