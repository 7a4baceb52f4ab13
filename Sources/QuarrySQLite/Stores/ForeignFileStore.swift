import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// A SQLite file Quarry did not create: its tables and views as they are, written in the
/// formats its columns keep, and nothing of Quarry's added to it. What Quarry keeps about
/// it (entities imported, `relate()` calls) is in its sidecar (`ForeignSidecar`); other
/// processes see its changes through `data_version` and row hashes, as they see any
/// writer's that keeps no history.
package final class ForeignFileStore: SQLiteStore {
    package var managedObjectModel: ManagedObjectModel {
        get { model }
        _modify {
            var taken = model
            model = .init()
            defer { model = taken }
            yield &taken
        }
    }
    package var mapping: StoreMapping {
        get { storeMapping }
        _modify {
            var taken = storeMapping
            storeMapping = .init()
            defer { storeMapping = taken }
            yield &taken
        }
    }
    // Private storage behind the protocol's accessors, which a save reads for each object:
    // storage no other module reaches, and no access to which spans other code (a change
    // is made to the value taken out), has its exclusive access proved at compile time
    // (`ManagedObject.described`'s note, issue 84).
    private var model = ManagedObjectModel()
    private var storeMapping = StoreMapping()
    package var dialect: any SQLDialect { SQLiteDialect() }
    package var runsCascadesAtOnce: Bool { true }
    /// The file the sidecar is kept beside.
    let path: String
    /// The declarations kept beside the file (changed only through `keep`, which writes it first).
    var sidecar: ForeignSidecar
    /// The file's views as last read, to notice one another program redefines
    /// (`ForeignFileStore+RedefinedViews`).
    var viewsAsRead = ViewsAsRead()
    /// Declarations the sidecar keeps of the file's own tables (`loadEntities`), which the
    /// open leaves out and says so.
    var ignoredDeclarations: [String] = []
    // Not Quarry's file (`isQuarrysFile` false): its `relate()` calls go to the sidecar
    // (`keep(_:context:)`), its sub-entities' views to the TEMP schema
    // (`remakeHierarchyViews`).
    /// The entities Quarry defined in the file (their declarations in the sidecar).
    package func keepsDeclaration(of name: String) -> Bool { keepsQuarryLayout(name) }

    init(path: String) throws {
        self.path = path
        sidecar = try ForeignSidecar.load(for: path)
    }

    /// A save or `updateall` that sets a generated column (`GENERATED ALWAYS AS`) is
    /// refused, as SQLite would refuse it, before anything is written; so is one that
    /// changes the key of a saved row of a table without a rowid, which its object is
    /// known by (`ForeignSchemaReader+KeyedTables`), as on PostgreSQL.
    package func refuseUnfaithfulWrite(_ operation: String, in session: StoreSession) throws {
        guard operation == "save" else { return }
        let pending = session.pendingChanges
        // Only an entity with a generated column can be refused here: a file with none (most
        // files) is not asked about each object (a lookup an object, issue 84).
        let withGenerated = Set(managedObjectModel.entities.map(\.name).filter { !mapping.storage(of: $0).generated.isEmpty })
        if !withGenerated.isEmpty {
            for object in pending.updated + pending.inserted where withGenerated.contains(object.entity.name) {
                let generated = mapping.storage(of: object.entity.name).generated
                let set = object.isInserted ? generated.filter { !object.currentValue($0).isNull } : generated.filter { object.pending[$0] != nil }
                if let name = set.sorted().first { throw StoreError.during(operation: operation, Self.generatedRefusal(object.entity.name, name)) }
            }
        }
        try mapping.refuseKeyChanges(of: pending.updated, operation: operation)
    }

    package func refuseSetting(_ keys: some Sequence<String>, of entity: String, operation: String) throws {
        if let name = keys.filter(mapping.storage(of: entity).generated.contains).sorted().first {
            throw StoreError.during(operation: operation, Self.generatedRefusal(entity, name))
        }
        try mapping.refuseSettingKeys(keys, of: entity, operation: operation)
    }

    /// The views of tables without a rowid are made before a write, which reads rows
    /// through them inside its transaction, where a view not yet made is not made.
    package func willWrite(_ operation: String, in session: StoreSession) throws {
        let views = managedObjectModel.entities.map { mapping.storage(of: $0) }.filter { $0.numberedRows != nil }.map(\.table)
        guard !views.isEmpty else { return }
        try session.connection.makeViews(readBy: views.joined(separator: " "))
    }

    private static func generatedRefusal(_ entity: String, _ name: String) -> StoreError {
        .database(message: "\(entity).\(name) is generated by SQLite and cannot be set; nothing was written")
    }

    /// Written before the transaction commits: a sidecar that cannot be written rolls the
    /// table back; a transaction that fails after leaves a definition whose table is
    /// missing, which the next open passes over.
    /// A table of the file's own (`entity` adding a column to it) keeps none: the next open
    /// reads it from the file, keyed as it is (a declaration of it read it by Quarry's `_pk`).
    package func keepDeclaration(_ name: String, definition: String, in db: Database, session: StoreSession) throws {
        guard !isOtherProgramsTable(name) else { return }
        var next = sidecar
        if let i = next.entities.firstIndex(where: { $0.name == name }) {
            next.entities[i].definition = definition
        } else {
            next.entities.append((name, definition))
        }
        try next.save(for: path)
        sidecar = next
    }

    /// In the sidecar: templates, `relate()` calls and `format()` declarations.
    package func keep(_ what: Keeping, session: StoreSession) throws {
        switch what {
        case .templates(let templates): try keep(templates: templates)
        case .relation(let relation): try keep(relation, session: session)
        case .format(let format): try keep(format, session: session)
        case .link: break
        }
    }

    /// Adds a `relate()` call to the sidecar (once). A read-only open keeps it in memory.
    private func keep(_ relation: ForeignSidecar.Relation, session: StoreSession) throws {
        guard !session.isReadOnly, !sidecar.relations.contains(relation) else { return }
        var next = sidecar
        next.relations.append(relation)
        try next.save(for: path)
        sidecar = next
    }

    package func keptTemplates(session: StoreSession) throws -> [CoreDataFetchRequest] { sidecar.templates }

    /// Keeps `model()`'s templates in the sidecar, replacing any of the same name.
    private func keep(templates: [CoreDataFetchRequest]) throws {
        var next = sidecar
        let names = Set(templates.map(\.name))
        next.templates = next.templates.filter { !names.contains($0.name) } + templates
        try next.save(for: path)
        sidecar = next
    }

    /// The entities the sidecar defines whose table the file still has, as `quarry_model`'s
    /// rows are read for Quarry's own files.
    private func loadEntities(_ connection: StoreConnection) throws {
        var declared: [String: EntityDescription] = [:]
        for (name, definition) in sidecar.entities {
            guard let entity = (try? StoredDefinition(text: definition))?.entity else {
                throw StoreError.database(message: "the model of entity \(name) in \(ForeignSidecar.path(for: path)) is unreadable")
            }
            declared[name] = entity
        }
        for (name, _) in sidecar.entities {
            // A sub-entity lives in its root's table (its view is TEMP, made at open): one
            // named as a table of the file would hide that table behind a view of another
            // (`count("u")` 0, its new rows written there), which `entity()` refuses too.
            if let parent = declared[name]?.parent, (try? tableExists(name, connection)) == true {
                throw StoreError.database(
                    message:
                        "\(ForeignSidecar.path(for: path)) declares \(name) a sub-entity of \(parent), but \(name) is a table of the file: refused (it would hide the table); mend the sidecar or move it away"
                )
            }
            let root = ManagedObjectModel.root(of: name, in: declared)
            guard (try? tableExists(root, connection)) == true, let entity = declared[name] else { continue }
            // Quarry's tables are keyed by `_pk`; a table without it is the file's own, which
            // an `entity` call once declared (what `.schema` printed, run back): read as the
            // file has it, rather than by a key it does not have ("no such column: _pk").
            if (try? hasColumn(EntityStorage.quarryKeyColumn, in: root, connection)) == false {
                ignoredDeclarations.append(name)
                sidecar.entities.removeAll { $0.name == name }
                continue
            }
            rememberDeclared(entity)
        }
        rememberHierarchies()
    }

    private func hasColumn(_ column: String, in table: String, _ connection: StoreConnection) throws -> Bool {
        try connection.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM pragma_table_info(?) WHERE name = ?)", arguments: [table, column]) ?? false
        }
    }

    private func tableExists(_ name: String, _ connection: StoreConnection) throws -> Bool {
        try connection.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?)", arguments: [name])
                ?? false
        }
    }

    /// Sub-entities' views over their root's table, with the triggers that write through
    /// them, in the connection's TEMP schema: the file keeps only the root's table.
    private func remakeHierarchyViews(in session: StoreSession) throws {
        let declared = managedObjectModel.declaredMap
        let order = managedObjectModel.entityOrder
        let members = order.filter { declared[$0]?.parent != nil }
        guard !members.isEmpty else { return }
        try session.connection.database.writeWithoutTransaction { db in
            for member in members {
                guard let entity = ManagedObjectModel.effective(member, in: declared, order: order) else { continue }
                let tags = ([member] + ManagedObjectModel.below(member, in: declared, order: order).map(\.name)).map(quoteLiteral)
                let root = ManagedObjectModel.root(of: member, in: declared)
                for sql in Self.viewSQL(entity, table: root, tags: tags, temporary: true) { try db.execute(sql: sql) }
            }
        }
    }

    /// Repeats the sidecar's `relate()` calls, then its `format()` declarations
    /// (`restoreFormats`); one that no longer applies (a column dropped, a table renamed)
    /// is left out with a note, and kept for a later open.
    private func restoreRelations(in session: StoreSession) {
        defer { restoreFormats(in: session) }
        for r in sidecar.relations {
            do {
                try session.relate(r.source, r.allColumns, r.destination, r.allDestinationColumns, name: r.name, inverse: r.inverse, keep: false)
            } catch {
                func names(_ columns: [String]) -> String {
                    let quoted = columns.map { "\"\($0)\"" }
                    return quoted.count == 1 ? quoted[0] : "{ " + quoted.joined(separator: ", ") + " }"
                }
                session.openingNotes.append(
                    "relate(\"\(r.source)\", \(names(r.allColumns)), \"\(r.destination)\", \(names(r.allDestinationColumns))) kept in \(ForeignSidecar.path(for: path)) no longer applies: \(error)"
                )
            }
        }
    }
}

/// A file with a schema and no model of Quarry's is someone else's: what Quarry keeps
/// about it is in its sidecar (`ForeignSidecar`), never in the file.
extension ForeignFileStore: OpenableStore {
    /// Asked after Quarry's and Core Data's kinds: any file on disk with a schema.
    package static func recognizes(_ db: Database, path: String?) throws -> Bool {
        guard let path, path != ":memory:" else { return false }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM main.sqlite_master)") == true
    }

    /// The store with the entities its sidecar defines.
    package static func open(_ connection: StoreConnection, modelPath: String?) throws -> ForeignFileStore {
        guard let path = connection.path else { throw StoreError.database(message: "an in-memory store has no file of another program's") }
        try acceptDoubleQuotedStrings(connection)
        let store = try ForeignFileStore(path: path)
        try store.loadEntities(connection)
        return store
    }

    /// The file's tables become entities, then the sidecar's `relate()` calls are repeated.
    package func didOpen(in session: StoreSession) throws {
        for name in ignoredDeclarations {
            session.openingNotes.append(
                "\(ForeignSidecar.path(for: path)) keeps a model of \(name) keyed by \(EntityStorage.quarryKeyColumn), which the table does not have (it is the file's own): ignored, and \(name) is read as the file has it"
            )
        }
        try remakeHierarchyViews(in: session)
        try ForeignSchemaReader(session: session).readTables()
        try noteViews(in: session)
        restoreRelations(in: session)
    }
}
