import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// How a store written by Core Data holds its model's entities, and the SQL that shows
/// them to the rest of Quarry under the model's names. This is the one place that knows
/// Core Data's layout:
/// - one table per root entity, `Z<ROOT>`, whose rows say their entity in `Z_ENT` (the
///   numbers of `Z_PRIMARYKEY`), keyed by `Z_PK`;
/// - a column `Z<NAME>` per attribute and per to-one relationship (the destination's
///   `Z_PK`); a many-to-many pair in a join table `Z_<n><NAME>`;
/// - dates as seconds since 2001-01-01, UUIDs as 16-byte blobs.
/// Each entity becomes a temporary view named after it (in SQLite's `temp` schema, which
/// lives in the connection and never in the file): `Z_PK` as `_pk`, each attribute under
/// its model name in Quarry's encoding, and the rows of the entity and its sub-entities.
/// Predicates, sorts, sections, counts and observers then run on the views; SQLite
/// flattens them into queries on the Z-tables, which `explain` shows.
public final class CoreDataStore {
    /// A link view's name, its SQL, and its triggers' (made at the first write).
    struct LinkView {
        var name: String
        var view: String
        var triggers: [String]
    }

    /// An entity as the store holds it.
    public struct Mapped {
        public var entity: EntityDescription
        /// Its number in `Z_PRIMARYKEY`, and those of its sub-entities at every depth.
        public var code: Int64
        /// The number of the root entity, whose `Z_MAX` hands out keys for the whole table.
        public var rootCode: Int64
        public var descendantCodes: [Int64]
        public var table: String
        /// Where the rest of Quarry reads its rows: the entity's view, keyed by `_pk`.
        /// Not a file of Quarry's: relationships made by relate() are not written into it.
        public var storage: EntityStorage {
            var storage = EntityStorage(
                layout: .coreData(number: code), relation: entity.name, keyColumn: EntityStorage.quarryKeyColumn, dialect: SQLiteDialect())
            storage.rowsWithoutColumns = rowsSQL
            return storage
        }
        /// The view's SQL (`CREATE TEMP VIEW ...`), and the columns its triggers write
        /// (their SQL is made at the first write, `willWrite`).
        var viewSQL: String
        /// The Z-table and the view's filter: the view's rows without its columns.
        var rowsSQL: String
        var writes: [ColumnWrite]
    }

    /// Seconds from 1970-01-01 to 2001-01-01, Core Data's reference date.
    public static let epochOffset = ReferenceDate.secondsSince1970

    public var entities: [Mapped] { didSet { positions = nil } }
    /// Where each entity is in `entities`, by name (made when first asked, `mapped(_:)`):
    /// mapping looks up the destination of every relationship.
    private var positions: [String: Int]?
    /// Join tables of many-to-many pairs (and columns keeping a to-many with no inverse),
    /// as the link views Quarry's relationships read.
    var linkViews: [LinkView]
    /// Whether the triggers that write through the views are made (`willWrite`).
    private var writeTriggersInstalled = false
    /// How the model was found ("the store's model cache", a file, or inferred).
    public var modelSource: String
    /// Whether the store keeps Core Data's persistent history (SwiftData stores always do),
    /// read once at open: a save then writes that history too (`PersistentHistoryWriter`).
    public var keepsPersistentHistory = false
    /// Whether `NSPersistentCloudKitContainer` mirrors the store (`CloudKitMirroring`).
    var mirrorsToCloudKit = false
    /// Whether a binary attribute allows external storage (`ExternalBinaryData`).
    var hasExternalAttributes = false
    /// Where each ordered to-many relationship keeps its order, by "Entity.relationship"
    /// (see `CoreDataStore+Ordering`).
    public var orderings: [String: Ordering] = [:]
    /// Derived attributes (computed by the store's triggers, read-only in Quarry): entity
    /// name to attribute name to its derivation, when the model gives one.
    public var derivedAttributes: [String: [String: String]] = [:]
    /// The model's names of the store's columns, as SQLite's messages name them:
    /// `ZCAR.ZNUMBERPLATE` is `Car.numberPlate` (its root entity's key).
    /// Made when first asked, from `namedColumns`: only a refused save's message reads it,
    /// and hashing 1,250 names into it was 1.6 million instructions of a first open of Photos.app's store.
    package lazy var columnNames: [String: String] = Dictionary(
        namedColumns.map { ("\($0.table).\($0.column)", "\($0.entity).\($0.key)") },
        uniquingKeysWith: { _, later in later })
    /// Each root entity's stored attribute: its table and column, and its name.
    var namedColumns: [(table: String, column: String, entity: String, key: String)] = []
    /// The column each entity's own rows keep an attribute in, by entity and attribute
    /// name: sibling sub-entities may keep a same-named one in suffixed columns.
    var attributeColumns: [String: [String: String]] = [:]
    /// Triggers of the store that call a function of Core Data's Quarry does not provide,
    /// read at the first write (reading Photos.app's 240 triggers was 2% of a `count`):
    /// saves are refused while there are any (`triggersMissingFunctions(in:)`).
    var missingFunctionTriggers: [String]?
    /// What could not be mapped, said once on stderr.
    public var notes: [String]
    /// The model as read: the mapped entities flatten inheritance (a parent's view holds
    /// its sub-entities' columns), so exporting the model or its Swift starts from this.
    public var model: CoreDataModel?
    /// What the context keeps about its objects for this store (versions, order stamps).
    var bookkeeping = CoreDataBookkeeping()
    /// The model's entities as Quarry sees them, and where their rows are (the views).
    package var managedObjectModel = ManagedObjectModel()
    package var mapping = StoreMapping()

    init(entities: [Mapped], linkViews: [LinkView], modelSource: String, notes: [String], model: CoreDataModel?) {
        self.entities = entities
        self.linkViews = linkViews
        self.modelSource = modelSource
        self.notes = notes
        self.model = model
    }

    /// Whether `db` is a store written by Core Data: its bookkeeping tables are there.
    public static func isCoreDataStore(_ db: Database) throws -> Bool {
        try db.hasTable("Z_PRIMARYKEY") && db.hasTable("Z_METADATA")
    }

    /// Reads the store's layout and its model: the store's cache, else `modelPath`, else
    /// one inferred from the tables.
    public static func read(_ db: Database, path: String, modelPath: String?) throws -> CoreDataStore {
        let numbers = try CoreDataNumbers(db, path: path)
        var model: CoreDataModel
        var source: String
        var notes: [String] = []
        var unreadableCache: String?
        var cached: CoreDataModel?
        if try CoreDataModel.hasModelCache(db) {
            do { cached = try CoreDataModel.fromModelCache(db, path: path) } catch {
                let text = "\(error)"
                unreadableCache = text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
            }
            if let note = DecodedModelCache.takeNote() { notes.append(note) }
        }
        if let cached {
            model = cached
            source = "the store's model cache"
            // The contract's order: the store's own model first. A model named on the command
            // line and not used says so, or the user reads the cache's names as the file's.
            if let modelPath {
                notes.append("\(path): --model \(modelPath) is not used: the store carries its own model (Z_MODELCACHE), which is read instead")
            }
        } else if let modelPath {
            model = try CoreDataModel.load(contentsOf: modelPath, readingStore: CoreDataModel.fromStore(atPath:))
            source = modelPath
        } else {
            let why = unreadableCache.map { "its model cache could not be read (\($0))" } ?? "the store holds no model"
            switch besideModel(path, why: why) {
            case .found(let found, let file, let note):
                model = found
                source = file
                notes.append(note)
            case .none(let besideNote):
                let inferred = try CoreDataModelInference.infer(db, numbers: numbers)
                model = inferred.model
                source = "inferred"
                notes.append(
                    "\(path): \(why) and none was given (--model MODEL)\(besideNote): entity, attribute and relationship names were inferred from its tables"
                )
                notes += inferred.notes.map { "\(path): \($0)" }
            }
        }
        let keepsHistory = try PersistentHistoryLayout.isPresent(db)
        let mirrored = try CloudKitMirroring.isPresent(db)
        func mapping(_ model: CoreDataModel, source: String, notes: [String]) throws -> CoreDataStore {
            let store = CoreDataStore(entities: [], linkViews: [], modelSource: source, notes: notes, model: nil)
            store.keepsPersistentHistory = keepsHistory
            store.mirrorsToCloudKit = mirrored
            try store.map(model, numbers: numbers, db: db)
            store.model = model
            return store
        }
        let store = try mapping(model, source: source, notes: notes)
        // Entities whose rows the store holds but the model does not map would be silently
        // unreadable: a model matching none of them gives way to inferred names; else each
        // is named in a note.
        let unread = try numbers.entitiesWithTables(db).filter { name in !store.entities.contains { $0.entity.name == name } }
        guard source != "inferred", !unread.isEmpty else { return store }
        let listed = unread.prefix(5).joined(separator: ", ") + (unread.count > 5 ? " and \(unread.count - 5) more" : "")
        if store.entities.isEmpty {
            let inferred = try CoreDataModelInference.infer(db, numbers: numbers)
            return try mapping(
                inferred.model, source: "inferred",
                notes: [
                    "\(path): the model (\(source)) matches none of the store's entities (\(listed)): entity, attribute and relationship names were inferred from its tables"
                ] + inferred.notes.map { "\(path): \($0)" })
        }
        store.notes.append("\(path): the model (\(source)) does not map the store's entities \(listed): their rows are not read")
        return store
    }

    enum BesideModel {
        case found(CoreDataModel, file: String, note: String)
        /// Nothing found, or what was found and could not be read (said in the note).
        case none(String)
    }

    /// The model beside a store that carries none (`CoreDataModel.modelBeside`), with a
    /// note naming the file used. One that cannot be read is not an error (the user did
    /// not ask for it): the note says why and the names are inferred.
    static func besideModel(_ path: String, why: String) -> BesideModel {
        guard path != ":memory:", let file = CoreDataModel.modelBeside(store: path) else { return .none("") }
        do {
            let model = try CoreDataModel.load(contentsOf: file, readingStore: CoreDataModel.fromStore(atPath:))
            return .found(model, file: file, note: "\(path): \(why); the model beside it was used: \(file)")
        } catch {
            return .none(", and the model beside it could not be read (\(error))")
        }
    }

    /// The views, for the connection to make when SQL first reads each (`DeferredViews`):
    /// temporary, so nothing is written to the file, and made without a transaction,
    /// which would touch the file's journal.
    var views: DeferredViews {
        DeferredViews(entities.map { ($0.entity.name, [$0.viewSQL]) } + linkViews.map { ($0.name, [$0.view]) })
    }

    /// Makes every view and the views' INSTEAD OF triggers, once, before anything is
    /// written. The triggers wait for this: SQLite scans its whole TEMP schema for each
    /// entry it adds, so the 240 triggers of Photos.app's 61 entities were 110 of the
    /// 190 ms a `count` took, and a session that only reads needs none of them.
    package func willWrite(_ operation: String, in session: StoreSession) throws {
        guard !writeTriggersInstalled else { return }
        try session.connection.makeAllViews()
        try session.connection.database.writeWithoutTransaction { db in
            let triggers = entities.flatMap { mapped in
                Self.triggers(view: mapped.entity.name, table: mapped.table, code: mapped.code, rootCode: mapped.rootCode, writes: mapped.writes)
            }
            try db.executeDirectly(triggers + linkViews.flatMap(\.triggers))
        }
        writeTriggersInstalled = true
    }

    /// The key the last insert into `entity`'s view took (SQLite's last rowid is not set
    /// by an insert through a trigger): its root's `Z_MAX`, inside the same transaction.
    public func lastInsertedKey(of entity: String, in db: Database) throws -> Int64? {
        guard let mapped = mapped(entity) else { return nil }
        return try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM main.Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [mapped.rootCode])
    }

    public func mapped(_ name: String) -> Mapped? {
        if positions == nil {
            positions = Dictionary(entities.enumerated().map { ($1.entity.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return positions?[name].map { entities[$0] }
    }

    /// An SQLite message about the store's tables in the model's names, so a refused save
    /// says `Car.numberPlate`, not `ZCAR.ZNUMBERPLATE`.
    public func inModelNames(_ message: String) -> String {
        var text = message
        for (column, name) in columnNames.sorted(by: { $0.key.count > $1.key.count }) where text.contains(column) {
            text = text.replacingOccurrences(of: column, with: name)
        }
        if let mapped = entities.first(where: { text.contains("\($0.table).Z_PK") }) {
            let root = entities.first { $0.code == mapped.rootCode }?.entity.name ?? mapped.entity.name
            text = text.replacingOccurrences(
                of: "\(mapped.table).Z_PK", with: "\(root)'s key (Z_PK: Z_PRIMARYKEY.Z_MAX is behind the keys in \(mapped.table))")
        }
        return text
    }

    /// The Z-table SQL each entity named in `sql` reads (its view's query), for `explain`:
    /// `("Car", "SELECT \"Z_PK\" AS ... FROM main.\"ZCAR\" WHERE ...")`.
    public func tableSQL(readBy sql: String) -> [(entity: String, sql: String)] {
        entities.compactMap { mapped in
            guard sql.contains(quoteIdentifier(mapped.entity.name)), let range = mapped.viewSQL.range(of: " AS SELECT ") else { return nil }
            return (mapped.entity.name, "SELECT " + mapped.viewSQL[range.upperBound...])
        }
    }

    /// The Z-table that holds `entity`'s rows.
    public func table(of entity: String) -> String? { mapped(entity)?.table }

    /// A row's `Z_OPT` (nil when the row is gone or has none).
    static func version(in table: String, key: Int64, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT Z_OPT FROM main.\(quoteIdentifier(table)) WHERE Z_PK = ?", arguments: [key])
    }

}

extension CoreDataStore {
    /// UUID text to Core Data's 16-byte blob, for the views' triggers; anything that is not
    /// a UUID's text passes unchanged (Quarry checks values before it writes them).
    static let uuidBlob = DatabaseFunction(uuidBlobFunction, argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return values[0] }
        let hex = Array(text.utf8.filter { $0 != UInt8(ascii: "-") })
        guard hex.count == 32 else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for i in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(decoding: hex[i..<i + 2], as: UTF8.self), radix: 16) else { return text }
            bytes.append(byte)
        }
        return Data(bytes)
    }
}

/// `Z_PRIMARYKEY`: each entity's number, name and super-entity.
struct CoreDataNumbers {
    var names: [Int64: String] = [:]
    var codes: [String: Int64] = [:]
    var supers: [String: String] = [:]

    /// The entities of `Z_PRIMARYKEY` whose root has a table (`Z<ROOT>`), sorted: those
    /// that can hold rows (the history's entities, kept in `A...` tables, are not).
    func entitiesWithTables(_ db: Database) throws -> [String] {
        let tables = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'").map { $0.uppercased() })
        return codes.keys.sorted().filter { name in
            var root = name
            var seen: Set<String> = [name]
            while let parent = supers[root], seen.insert(parent).inserted { root = parent }
            return tables.contains("Z" + root.uppercased())
        }
    }

    init(_ db: Database, path: String) throws {
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY") {
            let code: Int64 = try row.stored(0, table: "Z_PRIMARYKEY", column: "Z_ENT")
            let name: String = try row.stored(1, table: "Z_PRIMARYKEY", column: "Z_NAME")
            let parent: Int64? = try row.storedIfPresent(2, table: "Z_PRIMARYKEY", column: "Z_SUPER")
            if codes[name] != nil {
                throw StoreError.database(message: "\(path): Z_PRIMARYKEY names two entities \(SchemaName.shown(name))")
            }
            names[code] = name
            codes[name] = code
            if let parent, parent != 0 { supers[name] = String(parent) }
        }
        // Parents by number, resolved once every name is known.
        for (name, parent) in supers { supers[name] = Int64(parent).flatMap { names[$0] } }
        // A cycle of super-entities has no root table: say so instead of guessing.
        for name in supers.keys.sorted() {
            var seen: [String] = [name]
            var current = supers[name]
            while let parent = current {
                if seen.contains(parent) {
                    throw StoreError.database(
                        message: "\(path): Z_PRIMARYKEY gives the entities \(seen.joined(separator: ", ")) a cycle of super-entities (Z_SUPER)")
                }
                seen.append(parent)
                current = supers[parent]
            }
        }
    }
}
