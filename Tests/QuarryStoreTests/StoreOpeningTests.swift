import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// Each kind of store recognises its files and opens them with its model and mapping
/// read (`OpenableStore`); the context asks the kinds in order (Quarry's, Core Data's,
/// any other program's) and adopts the first that says yes.
@Suite struct StoreOpeningTests {
    /// A connection to `path`, as a context opens one.
    func connection(_ path: String?) throws -> StoreConnection {
        try StoreConnection.openingSQLite(path: path, readOnly: false, functions: [], extensions: StoreRegistry.connectionExtensions)
    }

    /// The kind the context would choose for `path`, and whether each kind recognises it.
    func recognition(_ path: String?) throws -> (chosen: any OpenableStore.Type, quarry: Bool, coreData: Bool, foreign: Bool) {
        let opened = try connection(path)
        defer { opened.close() }
        return try opened.read { db in
            (
                try SQLiteFileOpening.storeKind(of: db, path: path, among: OpenFileRequest.storeKinds),
                try QuarryFileStore.recognizes(db, path: path),
                try CoreDataStore.recognizes(db, path: path), try ForeignFileStore.recognizes(db, path: path)
            )
        }
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// A file `name`.sqlite in a new temporary folder, made by another program's `sql`.
    func file(_ name: String, _ sql: String...) throws -> String {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent(name + ".sqlite").path
        try DatabaseQueue(path: path).write { db in
            for statement in sql { try db.execute(sql: statement) }
        }
        return path
    }

    /// What `kind`'s factory opens at `path`; `check` is given a context opened there.
    /// Neither changes a byte of the file.
    func opened<Kind: OpenableStore>(_ path: String, as kind: Kind.Type, _ check: (ObjectContext) throws -> Void) throws -> Kind {
        let before = bytes(path)
        let connection = try connection(path)
        let store = try Kind.open(connection, modelPath: nil)
        connection.close()
        let context = try OpenFileRequest.open(path: path)
        try check(context)
        context.close()
        #expect(bytes(path) == before)
        return store
    }

    @Test func aQuarryFileOpensAsQuarrysWithItsModelAndHierarchies() throws {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent("own.sqlite").path
        do {
            let context = try OpenFileRequest.open(path: path)
            defer { context.close() }
            try context.define(EntityDescription(name: "Animal", attributes: [AttributeDescription(name: "name", type: .string)]))
            var dog = EntityDescription(name: "Dog", attributes: [AttributeDescription(name: "breed", type: .string)])
            dog.parent = "Animal"
            try context.define(dog)
        }
        let seen = try recognition(path)
        #expect(seen.chosen is QuarryFileStore.Type)
        // A later kind would also say yes: the order decides.
        #expect(seen.quarry && !seen.coreData && seen.foreign)

        let opened = try connection(path)
        defer { opened.close() }
        let store = try QuarryFileStore.open(opened, modelPath: nil)
        #expect(store.managedObjectModel.entityOrder == ["Animal", "Dog"])
        // Read as objects see it: the sub-entity has its parent's keys.
        #expect(store.managedObjectModel["Dog"]?.attributeNames.sorted() == ["breed", "name"])
        #expect(store.managedObjectModel.declaredByName["Dog"]?.attributeNames == ["breed"])

        let context = try OpenFileRequest.open(path: path)
        defer { context.close() }
        #expect(context.store is QuarryFileStore)
        #expect(context.entities.map(\.name) == ["Animal", "Dog"])
    }

    @Test func aCoreDataStoreOpensAsCoreDatasAndChangesNoByte() throws {
        let path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
        let seen = try recognition(path)
        #expect(seen.chosen is CoreDataStore.Type)
        #expect(!seen.quarry && seen.coreData && seen.foreign)

        var adopted: [String] = []
        let store = try opened(path, as: CoreDataStore.self) { context in
            #expect(context.store is CoreDataStore)
            adopted = context.entities.map(\.name)
        }
        let names = store.managedObjectModel.entities.map(\.name)
        #expect(names.contains("Car") && names.contains("SportCar"))
        // Its Z-tables are not entities.
        #expect(!names.contains { $0.hasPrefix("Z") })
        #expect(store.mapping.storage(of: "Car").storeNumber != nil)
        #expect(adopted == names)
    }

    @Test func anotherProgramsFileOpensAsForeignAndChangesNoByte() throws {
        let path = try file("theirs", "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT)", "INSERT INTO person (name) VALUES ('Ada')")
        let seen = try recognition(path)
        #expect(seen.chosen is ForeignFileStore.Type)
        #expect(!seen.quarry && !seen.coreData && seen.foreign)

        // The factory reads the sidecar's entities (none); the file's tables become
        // entities once the context adopts the store.
        let store = try opened(path, as: ForeignFileStore.self) { context in
            #expect(context.store is ForeignFileStore)
            #expect(context.entities.map(\.name) == ["person"])
            let name = try context.object(entityName: "person", primaryKey: 1)?.value(forKey: "name")
            #expect(name == .text("Ada"))
        }
        #expect(store.managedObjectModel.entities.isEmpty)
    }

    /// A `quarry_model` with no rows beside other tables does not make a file Quarry's.
    @Test func anEmptyModelTableBesideOtherTablesIsAnotherProgramsFile() throws {
        let path = try file(
            "half", "CREATE TABLE quarry_model (name TEXT PRIMARY KEY, definition TEXT NOT NULL)",
            "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
        #expect(try recognition(path).chosen is ForeignFileStore.Type)
    }

    @Test func aNewFileAndAnInMemoryStoreAreQuarrys() throws {
        let path = try CoreDataFixtures.temporaryFolder().appendingPathComponent("new.sqlite").path
        for candidate in [path, ":memory:", nil] as [String?] {
            let seen = try recognition(candidate)
            #expect(seen.chosen is QuarryFileStore.Type, "\(candidate ?? "nil")")
            #expect(seen.quarry && !seen.coreData && !seen.foreign, "\(candidate ?? "nil")")
            let context = try OpenFileRequest.open(path: candidate)
            #expect(context.store is QuarryFileStore && context.entities.isEmpty, "\(candidate ?? "nil")")
            context.close()
        }
        #expect(throws: StoreError.self) { try ForeignFileStore.open(try connection(nil), modelPath: nil) }
    }

    /// A stored declaration that is not one fails the open, naming the entity.
    @Test func anUnreadableStoredModelIsRefusedNamingTheEntity() throws {
        let path = try file(
            "bad", "CREATE TABLE quarry_model (name TEXT PRIMARY KEY, definition TEXT NOT NULL)",
            "INSERT INTO quarry_model VALUES ('Thing', 'not a definition')")
        #expect(try recognition(path).chosen is QuarryFileStore.Type)
        let opened = try connection(path)
        defer { opened.close() }
        #expect { try QuarryFileStore.open(opened, modelPath: nil) } throws: { "\($0)".contains("entity Thing") }
    }
}
