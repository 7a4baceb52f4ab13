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
        let result = try await sandbox.quarry([store, "-e", #"""
            local names = {}
            for _, e in ipairs(entities()) do names[#names + 1] = e.name end
            print(table.concat(names, ","))
            print(count("Car"), count("SportCar"), #fetch{ "Car", subentities = false })
            print(Car:first("maker == 'McLaren'"):entity().name)
            """#])
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["Car,ExpensiveSportCar,Person,SportCar", "125\t10\t115", "ExpensiveSportCar"], "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let after = try sandbox.listing().map { ($0, try Data(contentsOf: URL(fileURLWithPath: sandbox.path($0)))) }
        #expect(after.map(\.0) == before.map(\.0) && zip(after, before).allSatisfy { $0.1 == $1.1 }, "the store's folder changed")
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

        let notAModel = try await sandbox.quarry(["--model", sandbox.path("missing.momd"), journal, "-e", "print(1)"])
        #expect(notAModel.status == 1 && notAModel.errorLines.count == 1 && notAModel.stderr.contains("missing.momd"), "\(notAModel)")
    }

    @Test func aSaveIsWrittenAsCoreDataWouldAndReadBack() async throws {
        let sandbox = try Sandbox()
        let store = try copy("cars/SampleModel_V1.sqlite", into: sandbox)
        let saved = try await sandbox.quarry([store, "-e", #"""
            local c = SportCar:new{ maker = "Ferrari", model = "F40", numberPlate = "Q-9", markedForDeletionAsOf = date("2024-01-02T03:04:05Z") }
            c.owner = Person:get("Person/2")
            save()
            print(c:objectID())
            """#])
        #expect(saved.status == 0 && saved.lines == ["SportCar/126"], "\(saved)")
        let read = try await sandbox.quarry(["--readonly", store, "-e", #"local c = Car:get("Car/126"); print(c:entity().name, c.maker, tostring(c.markedForDeletionAsOf), c.owner:objectID())"#])
        #expect(read.lines == ["SportCar\tFerrari\t2024-01-02T03:04:05Z\tPerson/2"], "\(read)")
        let check = try await sandbox.run(HostileFileTests.sqlite3, [sandbox.path(store), "SELECT Z_ENT, Z_OPT, ZMARKEDFORDELETIONASOF FROM ZCAR WHERE Z_PK = 126; SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Car'; PRAGMA integrity_check"])
        #expect(check.lines == ["2|1|725857445", "126", "ok"], "\(check)")
    }
}
