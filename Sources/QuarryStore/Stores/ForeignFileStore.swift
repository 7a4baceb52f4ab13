import GRDB

/// A SQLite file Quarry did not create: its tables and views as they are, written in the
/// formats its columns keep, and nothing of Quarry's added to it. What Quarry keeps about
/// it (entities imported, `relate()` calls) is in its sidecar (`ForeignSidecar`); other
/// processes see its changes through `data_version` and row hashes, as they see any
/// writer's that keeps no history.
final class ForeignFileStore: SQLiteStore {
    var managedObjectModel = ManagedObjectModel()
    var mapping = StoreMapping()
    var dialect: any SQLDialect { SQLiteDialect() }
    var runsCascadesAtOnce: Bool { true }
    /// The file the sidecar is kept beside.
    let path: String
    /// The declarations kept beside the file (changed only through `keep`, which writes it first).
    var sidecar: ForeignSidecar
    /// Its `relate()` calls go to the sidecar (`keep(_:context:)`), its sub-entities'
    /// views to the TEMP schema (`remakeHierarchyViews`).
    var isQuarrysFile: Bool { false }

    init(path: String) throws {
        self.path = path
        sidecar = try ForeignSidecar.load(for: path)
    }

    /// Written before the transaction commits: a sidecar that cannot be written rolls the
    /// table back; a transaction that fails after leaves a definition whose table is
    /// missing, which the next open passes over.
    func keepDeclaration(_ name: String, definition: String, in db: Database, context: ObjectContext) throws {
        var next = sidecar
        if let i = next.entities.firstIndex(where: { $0.name == name }) { next.entities[i].definition = definition }
        else { next.entities.append((name, definition)) }
        try next.save(for: path)
        sidecar = next
    }

    /// Adds a `relate()` call to the sidecar (once). A read-only open keeps it in memory.
    func keep(_ relation: ForeignSidecar.Relation, context: ObjectContext) throws {
        guard !context.isReadOnly, !sidecar.relations.contains(relation) else { return }
        var next = sidecar
        next.relations.append(relation)
        try next.save(for: path)
        sidecar = next
    }

    func keptTemplates(context: ObjectContext) throws -> [CoreDataFetchRequest] { sidecar.templates }

    /// Keeps `model()`'s templates in the sidecar, replacing any of the same name.
    func keep(templates: [CoreDataFetchRequest], context: ObjectContext) throws {
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
                throw StoreError.database(message: "\(ForeignSidecar.path(for: path)) declares \(name) a sub-entity of \(parent), but \(name) is a table of the file: refused (it would hide the table); mend the sidecar or move it away")
            }
            let root = ManagedObjectModel.root(of: name, in: declared)
            guard (try? tableExists(root, connection)) == true, let entity = declared[name] else { continue }
            rememberDeclared(entity)
        }
        rememberHierarchies()
    }

    private func tableExists(_ name: String, _ connection: StoreConnection) throws -> Bool {
        try connection.read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ?)", arguments: [name]) ?? false
        }
    }

    /// Sub-entities' views over their root's table, with the triggers that write through
    /// them, in the connection's TEMP schema: the file keeps only the root's table.
    private func remakeHierarchyViews(in context: ObjectContext) throws {
        let declared = managedObjectModel.declaredMap, order = managedObjectModel.entityOrder
        let members = order.filter { declared[$0]?.parent != nil }
        guard !members.isEmpty else { return }
        try context.database.writeWithoutTransaction { db in
            for member in members {
                guard let entity = ManagedObjectModel.effective(member, in: declared, order: order) else { continue }
                let tags = ([member] + ManagedObjectModel.below(member, in: declared, order: order).map(\.name)).map(Self.literal)
                let root = ManagedObjectModel.root(of: member, in: declared)
                for sql in Self.viewSQL(entity, table: root, tags: tags, temporary: true) { try db.execute(sql: sql) }
            }
        }
    }

    /// Repeats the sidecar's `relate()` calls, then its `format()` declarations
    /// (`restoreFormats`); one that no longer applies (a column dropped, a table renamed)
    /// is left out with a note, and kept for a later open.
    private func restoreRelations(in context: ObjectContext) {
        defer { restoreFormats(in: context) }
        for r in sidecar.relations {
            do {
                try context.relate(r.source, r.column, r.destination, r.destinationColumn, name: r.name, inverse: r.inverse, keep: false)
            } catch {
                context.openingNotes.append("relate(\"\(r.source)\", \"\(r.column)\", \"\(r.destination)\", \"\(r.destinationColumn)\") kept in \(ForeignSidecar.path(for: path)) no longer applies: \(error)")
            }
        }
    }
}

/// A file with a schema and no model of Quarry's is someone else's: what Quarry keeps
/// about it is in its sidecar (`ForeignSidecar`), never in the file.
extension ForeignFileStore: OpenableStore {
    /// Asked after Quarry's and Core Data's kinds: any file on disk with a schema.
    static func recognizes(_ db: Database, path: String?) throws -> Bool {
        guard let path, path != ":memory:" else { return false }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM main.sqlite_master)") == true
    }

    /// The store with the entities its sidecar defines.
    static func open(_ connection: StoreConnection, modelPath: String?) throws -> ForeignFileStore {
        guard let path = connection.path else { throw StoreError.database(message: "an in-memory store has no file of another program's") }
        let store = try ForeignFileStore(path: path)
        try store.loadEntities(connection)
        return store
    }

    /// The file's tables become entities, then the sidecar's `relate()` calls are repeated.
    func didOpen(in context: ObjectContext) throws {
        try remakeHierarchyViews(in: context)
        try ForeignSchemaReader(context: context).readTables()
        restoreRelations(in: context)
    }
}
