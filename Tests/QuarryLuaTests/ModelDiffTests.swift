import Foundation
import QuarryModel
import QuarryModelFiles
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// `diff(store, model)` and `diff(model, model)`: what a migration from a store's model to
/// a model file changes, on the real stores and models of `coredata/` (copied first):
/// `posts/` (the store at version 3, the current version 4) and `cars/` (three versions,
/// an entity renamed by its renaming identifier).
@Suite struct ModelDiffTests {
    /// Rows of `diff(...)` as `mark entity property what lightweight` lines, in order.
    static func rows(_ h: Harness, _ call: String) -> String? {
        h.string(
            """
            (function() local t = {} for _, r in ipairs(\(call)) do
              t[#t + 1] = table.concat({ r.change, r.entity, tostring(r.property), r.what, tostring(r.lightweight) }, " ")
            end return table.concat(t, "; ") end)()
            """)
    }

    @Test func thePostsStoreAtVersionThreeAgainstTheCurrentVersionAddsOneOptionalAttribute() throws {
        let store = try CoreDataFixtures.copyOfStore("posts/CoreDataMigration_Example_3.sqlite")
        let model = try CoreDataFixtures.path("posts/CoreDataMigration_Example.xcdatamodeld")
        let h = try Harness(context: try StoreOpener.open(store, readOnly: true))
        #expect(Self.rows(h, "diff(\(luaQuote(model)))") == "+ Post hide added true")
        // nil is the session's store, as a store handle will be.
        #expect(Self.rows(h, "diff(nil, \(luaQuote(model)))") == "+ Post hide added true")
        #expect(h.string("#diff(\(luaQuote(model + "/CoreDataMigration_Example 3.xcdatamodel")))") == "0")
        // Back to version 1: Color goes, Post.color turns from a relationship into a string.
        #expect(
            Self.rows(h, "diff(\(luaQuote(model + "/CoreDataMigration_Example.xcdatamodel")))")
                == "- Color nil removed true; - Post color removed true; + Post color added true")
    }

    @Test func theCarsVersionsFollowTheRenamingIdentifierAndSayWhatIsNotInferred() throws {
        let store = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let model = try CoreDataFixtures.path("cars/SampleModel.xcdatamodeld")
        let h = try Harness(context: try StoreOpener.open(store, readOnly: true))
        // The store is at the current version (1).
        #expect(h.string("#diff(\(luaQuote(model)))") == "0")
        // Version 2 renames ExpensiveSportCar to LuxuryCar (elementID): a rename, not a
        // removal and an addition; it drops Car.color, Person.id and two transients.
        #expect(
            Self.rows(h, "diff(\(luaQuote(model + "/SampleModel2.xcdatamodel")))")
                == "- Car color removed true; - Car currentDrivingSpeed removed true; ~ LuxuryCar nil name true; "
                + "- Person id removed true; - Person isDriving removed true")
        #expect(
            Self.rows(h, "diff(\(luaQuote(model + "/SampleModel2.xcdatamodel")), \(luaQuote(model + "/SampleModel3.xcdatamodel")))")
                == "+ Car createdBy added true; - Car maker removed true; + Car previousOwners added true; "
                + "+ Maker nil added true; + Person previousCars added true")
        // The compiled .momd is the same model as the .xcdatamodeld, renaming identifiers
        // included (a compiled model keeps them as NSRenamingIdentifier).
        #expect(h.string("#diff(\(luaQuote(model)), \(luaQuote(try CoreDataFixtures.path("cars/SampleModel.momd"))))") == "0")
        let compiled = try CoreDataFixtures.path("cars/SampleModel.momd/SampleModel2.mom")
        #expect(h.string("#diff(\(luaQuote(model + "/SampleModel2.xcdatamodel")), \(luaQuote(compiled)))") == "0")
        #expect(try CoreDataModel.load(contentsOf: compiled).entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
    }

    @Test func typeChangesAndRequiredAttributesWithoutDefaultsAreNotInferred() throws {
        let folder = try CoreDataFixtures.temporaryFolder()
        func write(_ name: String, _ body: String) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data(
                """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                \(body)
                </model>
                """.utf8
            ).write(to: URL(fileURLWithPath: path + "/contents"))
            return path
        }
        let v1 = try write(
            "V1.xcdatamodel",
            """
            <entity name="Item">
                <attribute name="count" optional="YES" attributeType="Integer 16"/>
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="old" optional="YES" attributeType="String"/>
                <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
            </entity>
            <entity name="Tag">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
            </entity>
            """)
        let v2 = try write(
            "V2.xcdatamodel",
            """
            <entity name="Item">
                <attribute name="count" optional="YES" attributeType="String"/>
                <attribute name="title" attributeType="String"/>
                <attribute name="fresh" attributeType="String" elementID="old"/>
                <attribute name="stamp" attributeType="Date"/>
                <relationship name="tags" optional="YES" maxCount="1" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
            </entity>
            <entity name="Tag">
                <attribute name="name" optional="YES" attributeType="String" defaultValueString="none"/>
                <relationship name="items" optional="YES" toMany="YES" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
            </entity>
            """)
        let diff = ModelDifference(from: try CoreDataModel.load(contentsOf: v1), to: try CoreDataModel.load(contentsOf: v2))
        let shown = diff.changes.map { "\($0.kind.mark) \($0.entity).\($0.property ?? "") \($0.what ?? "") \($0.inferable)" }
        #expect(
            shown == [
                "~ Item.count type false", "~ Item.fresh name true", "~ Item.fresh optional false", "+ Item.stamp  false",
                "~ Item.tags kind false", "~ Item.title optional false", "~ Tag.name default true"
            ], "\(shown)")
        #expect(diff.notInferable.count == 5)
    }

    @Test func aBadModelPathIsOneLineNamingIt() throws {
        let h = try Harness()
        let message = h.error(#"diff("/nonexistent/App.xcdatamodeld")"#)
        #expect(message.contains("/nonexistent/App.xcdatamodeld"), "\(message)")
        #expect(!message.contains("\n"))
        #expect(h.error(#"diff(nil, nil, { bye = 1 })"#).contains("unknown option 'bye'"))
    }
}

/// A Lua string literal of `text`.
private func luaQuote(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
