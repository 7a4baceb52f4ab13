import CQuarrySignals
import Foundation
import QuarryModel

/// Core Data's managed object context over one SQLite database: the entities, the
/// objects registered once each (identity map), and the changes pending until `save()`.
public final class ObjectContext {
    /// The store's SQLite handle and side files.
    public let connection: StoreConnection
    public var isReadOnly: Bool { connection.isReadOnly }
    /// Where the store lives; nil for an in-memory store.
    public var path: String? { connection.path }
    var isClosed: Bool { connection.isClosed }

    /// The entities the store holds (see `ManagedObjectModel`).
    public internal(set) var managedObjectModel: ManagedObjectModel {
        get { store.managedObjectModel }
        _modify { yield &store.managedObjectModel }
    }
    /// Where each entity's rows are in the file: the only source of table and column
    /// names for the SQL this context and the layers above write.
    public internal(set) var mapping: StoreMapping {
        get { store.mapping }
        _modify { yield &store.mapping }
    }

    /// One object per row in use.
    private var identityMap = IdentityMap()

    /// The relationships `relate()` made that the store keeps apart from its database (a
    /// foreign file's sidecar, a server's session), as `Entity.name`: the to-one, its
    /// inverse and a join table's many-to-many it completed. How Quarry reads columns the
    /// database has, not part of its schema: `diff` leaves them out of the models' comparison.
    public internal(set) var relationshipsDeclaredApart: Set<String> = []

    /// What is inserted, updated and deleted until the next save or rollback.
    var unsaved = PendingChanges()

    /// Listeners, watchers and the generations results compare (`ContextObservers`).
    var observers = ContextObservers()
    /// Increases on every save and rollback, so results know to re-run.
    public var generation: Int { observers.generation }
    /// Increases on every unsaved change, so results that include them re-run.
    public var pendingGeneration: Int { observers.pendingGeneration }

    func bumpPendingGeneration(touching objects: ManagedObject...) {
        observers.pendingGeneration += 1
        unsaved.touches.note(objects, at: pendingGeneration)
        stateMoved()
    }

    /// `bumpPendingGeneration` for an unsaved change to `object`'s own attribute values
    /// alone: the watchers hear which object, so that copies of other rows' values stay.
    func bumpPendingGeneration(changingValuesOf object: ManagedObject) {
        observers.pendingGeneration += 1
        unsaved.touches.note(object, at: pendingGeneration)
        observers.stateWatchers.forEach { $0(object) }
    }

    /// The objects touched by unsaved changes made after `pendingGeneration` (a change
    /// touches the object changed, inserted or deleted, and both ends of a link), or nil
    /// when that is no longer known; undefined across a save or rollback (`generation`).
    public func objectsTouched(after pendingGeneration: Int) -> [ManagedObject]? {
        unsaved.touches.objects(after: pendingGeneration)
    }

    // Whenever `generation` or `pendingGeneration` moves, the state watchers are called:
    // whoever keeps copies of values read from this context (the Lua layer's row cells)
    // learns they may be stale.

    /// Calls `watcher` whenever the context's objects may have changed, with the object
    /// when only that object's own attribute values changed (an unsaved assignment: no
    /// other object's values, and no row as stored); returns the id that
    /// `stopWatchingState` takes.
    public func watchState(_ watcher: @escaping (ManagedObject?) -> Void) -> Int {
        let id = observers.nextID()
        observers.stateWatchers.add(id, watcher)
        return id
    }

    /// Calls `watcher` when a commit by another connection has been noticed, before the
    /// objects in use are compared with the store: whoever holds rows that are not yet
    /// objects makes them now, from the values they were read with, so that the
    /// comparison (and the observers) see what changed in them.
    public func watchOutsideChanges(_ watcher: @escaping () -> Void) -> Int {
        let id = observers.nextID()
        observers.outsideChangeWatchers.add(id, watcher)
        return id
    }

    func outsideChangeNoticed() { observers.outsideChangeWatchers.forEach { $0() } }

    /// Ends a watch begun by `watchState` or `watchOutsideChanges`.
    public func stopWatchingState(_ id: Int) {
        observers.stateWatchers.remove(id)
        observers.outsideChangeWatchers.remove(id)
    }

    private func stateMoved() { observers.stateWatchers.forEach { $0(nil) } }

    /// Calls `listener` after every save that changed something, once the transaction
    /// has committed and the objects hold their new state.
    public func addChangeListener(_ listener: @escaping (ChangeSet) -> Void) -> ChangeListenerToken {
        let id = observers.nextID()
        observers.changeListeners.add(id, listener)
        return ChangeListenerToken(context: self, id: id)
    }

    func notify(_ changes: ChangeSet) {
        guard !changes.isEmpty else { return }
        rehashWatchedRows(changes)
        for id in observers.changeListeners.ids { observers.changeListeners[id]?(changes) }
    }

    /// Whether unsaved changes touch objects of this entity.
    public func hasPendingChanges(of entityName: String) -> Bool {
        // A sub-entity's objects are the entity's too.
        unsaved.contains { isKind($0.entity.name, of: entityName) }
    }

    /// Who the recorded transactions name as their author.
    public var author: String?
    /// Other connections' commits as last seen (`OutsideChanges`).
    package var outsideChanges = OutsideChanges()
    /// What writes kept other than given, said once per column (`takeWriteNotes`).
    package var writeNotes = WriteNotes()

    /// Notes queued by the writes so far, each once; the caller says them.
    public func takeWriteNotes() -> [String] { writeNotes.take() }

    /// Queues the note for `value` written to `key` of `entity` when the key's column is a
    /// server's `date` and the value has a time of day, which the server drops.
    func noteDayColumn(_ entity: EntityDescription, _ key: String, _ value: Value) {
        guard case .date(let seconds) = value, seconds != (seconds / 86_400).rounded(.down) * 86_400,
            mapped(entity).dayColumns.contains(key)
        else { return }
        writeNotes.add(
            "\(entity.name).\(key)",
            "\(entity.name).\(key) keeps days alone (date): the time of day of \(value.displayString) "
                + "and of any other date written to it is dropped")
    }

    /// Related rows read ahead by prefetching and batch loading.
    var relatedRows = RelatedRows()

    /// A context over a store its connection's opener chose (a SQLite file's kind,
    /// `OpenFileRequest.open(path:)`; a PostgreSQL schema, `PostgresServerKind.open`): the store
    /// reads its model when the context adopts it.
    package init(connection: StoreConnection, store: any PersistentStore, environment: StoreEnvironment = StoreEnvironment()) throws {
        self.connection = connection
        self.chosenStore = store
        self.environment = environment
        openingNotes = connection.notes
        link.context = self
        try store.didOpen(in: session)
    }

    /// What the context's objects and row batches reach it by (`ContextLink`), emptied as it goes.
    package let link = ContextLink()
    deinit { link.context = nil }

    /// What the store is given of this context (`StoreSession`): the store never sees the
    /// context itself.
    package private(set) lazy var session = StoreSession(context: self)

    /// What the layers above gave the context when its store was opened.
    package let environment: StoreEnvironment

    /// The store behind the context, chosen by its opener (a class: what is changed in it
    /// needs no access to this property).
    package var store: any PersistentStore {
        get { chosenStore }
        set { chosenStore = newValue }
    }
    /// Out of other modules' sight, as `ContextLink.target` is, for the same reason.
    private var chosenStore: any PersistentStore
    /// What the open had to say (a model inferred, parts of a model left out): for stderr.
    public package(set) var openingNotes: [String] = []

    /// Closes the connection (every later read fails), and removes what a read-only open
    /// made beside the file. Called at exit and when `.open` replaces the store.
    public func close() { connection.close() }

    // MARK: Entities

    public var entities: [EntityDescription] { managedObjectModel.entities }

    /// The store's relations that are no entities, by name: why each is left out.
    package var leftOut: [String: String] = [:]
    /// The views among them, in the order they were left out: an open that leaves out
    /// several says so in one line (a MySQL-born file's views call functions SQLite lacks).
    package var viewsLeftOut: [String] = []

    public func entity(named name: String) throws -> EntityDescription {
        if let entity = managedObjectModel.entitiesByName[name] { return entity }
        if let why = leftOut[name] { throw StoreError.database(message: "unknown entity '\(name)': \(why)") }
        throw StoreError.unknownEntity(name: name, suggestion: closestEntityName(to: name, in: managedObjectModel.entityOrder))
    }

    // MARK: Objects

    /// Inserts a new object; values are type-checked now, required ones at save.
    public func insert(into entityName: String, values: [String: Value]) throws -> ManagedObject {
        try insert(into: entityName, values: values, linking: [])
    }

    /// The same, where `linking` names the to-one relationships the caller sets next (a
    /// key column that is a foreign key is given by them).
    public func insert(into entityName: String, values: [String: Value], linking: [String]) throws -> ManagedObject {
        try insert(into: try entity(named: entityName), values: values, linking: linking)
    }

    /// The same, with the entity's current description already looked up (`entity(named:)`).
    public func insert(into entity: EntityDescription, values: [String: Value], linking: [String]) throws -> ManagedObject {
        // Looked up once: an object is made for each row a script inserts.
        let storage = mapped(entity)
        if storage.isView { throw StoreError.viewIsReadOnly(entity: entity.name) }
        if entity.isAbstract {
            throw StoreError.validation(message: "\(entity.name) is abstract: it makes no objects (make one of its sub-entities)")
        }
        // Sized ahead only for several attributes: the standard library's sizing is its
        // generic code (830 instructions with the initializer, 1,270 with `reserveCapacity`:
        // 4% of making and saving 20,000 new objects of one attribute), where growing once
        // is specialized here.
        let attributeCount = entity.attributes.count
        var initial = attributeCount > 1 ? [String: Value](minimumCapacity: attributeCount) : [:]
        // A default the engine computes is not the object's until it is saved: no value
        // pending, so the INSERT leaves the column for the engine to fill (`engineDefaults`).
        let computed = storage.engineDefaults
        // The one value given is set below: its default is not put first (two writes of
        // one key for each of 20,000 new objects of one value, issue 84).
        let single = values.count == 1 ? values.first : nil
        let only = single?.key
        for attribute in entity.attributes where attribute.name != only && !computed.contains(attribute.name) {
            initial[attribute.name] = attribute.defaultValue ?? .null
        }
        for (name, clock) in storage.clockDefaults {
            guard let type = entity.attribute(named: name)?.type else { continue }
            initial[name] = connection.engine.clockValue(clock, as: type) ?? .null
        }
        let object = ManagedObject(
            entity: entity, primaryKey: nil, temporaryNumber: unsaved.takeTemporaryNumber(),
            committed: [:], context: self)
        // Handed over, not shared: kept alive here, the first value set copied it whole.
        object.pending = consume initial
        object.isInserted = true
        // In key order, so that of several refusals the same one is said each time (one
        // value needs no sorting, which was 0.7% of making 20,000 objects of one value).
        if let (key, value) = single {
            try object.setNewValue(value, forKey: key, of: entity, storage: storage)
        } else {
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                try object.setNewValue(value, forKey: key, of: entity, storage: storage)
            }
        }
        if !storage.keysToGive.isEmpty { try requireGivenKeys(of: object, linking: linking) }
        unsaved.inserted.append(object)
        bumpPendingGeneration(touching: object)
        return object
    }

    /// A table whose primary key nothing fills (`CustomerID TEXT PRIMARY KEY`, an `integer`
    /// key with no default on a server) takes a new row only with its key: refused at once,
    /// naming the key, rather than by the store at save. A key column that is also a
    /// foreign key is given by its relationship as well.
    private func requireGivenKeys(of object: ManagedObject, linking: [String]) throws {
        let entity = currentEntity(of: object)
        // A relationship may be given under a name an earlier rule gave it (`relationshipAliases`).
        let linked = Set(linking.map { entity.relationshipAliases[$0] ?? $0 })
        for column in mapped(entity).keysToGive where object.currentValue(column).isNull {
            if entity.toOneRelationships.contains(where: { $0.keepsLink(in: column) && linked.contains($0.name) }) { continue }
            let through = entity.toOneRelationships.first { $0.keepsLink(in: column) }.map { " or its relationship '\($0.name)'" } ?? ""
            throw StoreError.validation(
                message: "new: \(entity.name) needs a value for its key '\(column)'\(through): the table fills in no key of its own")
        }
    }

    /// Marks one object deleted, without delete rules; the row goes at the next save.
    func markDeleted(_ object: ManagedObject) {
        guard object.context === self, !object.isDeleted else { return }
        bumpPendingGeneration(touching: object)
        unsaved.links.removeAll { $0.source === object || $0.target === object }
        forgetOrders(ownedBy: object)
        if object.isInserted {
            unsaved.inserted.removeAll { $0 === object }
            object.isInserted = false
            object.isDeleted = true
            object.context = nil
            return
        }
        object.isDeleted = true
        unsaved.updated[ObjectIdentifier(object)] = nil
        unsaved.deleted[ObjectIdentifier(object)] = object
        store.pendingChanges(.changed(object), in: session)
    }

    /// `valuesOnly`: the change was to the object's own attribute values alone (`setValue`).
    func noteChanged(_ object: ManagedObject, valuesOnly: Bool = false) {
        if valuesOnly { bumpPendingGeneration(changingValuesOf: object) } else { bumpPendingGeneration(touching: object) }
        guard !object.isInserted, !object.isDeleted else { return }
        let changed = !object.pending.isEmpty || !object.pendingToOne.isEmpty
        unsaved.updated[ObjectIdentifier(object)] = changed ? object : nil
        store.pendingChanges(changed ? .changed(object) : .unchanged(object), in: session)
    }

    /// The unsaved changes, for `.changes`. An object whose many-to-many links were added
    /// or removed, or whose ordered members were placed, is updated too, as Core Data
    /// counts it, though none of its own values changed.
    public var pendingChanges: (inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        (unsaved.inserted, Self.inKeyOrder(pendingUpdates.values), Self.inKeyOrder(unsaved.deleted.values))
    }

    /// The objects `pendingChanges` lists as updated, in no order: for a count, which
    /// needs no sort (`save()`'s, where the sort was a tenth of a save of 20,000 changes).
    package var pendingUpdates: [ObjectIdentifier: ManagedObject] {
        var updated = unsaved.updated
        for object in unsaved.links.flatMap({ [$0.source, $0.target] }) + unsaved.orders.map(\.owner)
        where !object.isInserted && !object.isDeleted {
            updated[ObjectIdentifier(object)] = object
        }
        return updated
    }

    /// The unsaved changes in words, for a refusal that would lose them ("2 pending
    /// changes (1 inserted, 1 updated)"); nil when there are none.
    public var pendingChangesSummary: String? {
        guard hasChanges else { return nil }
        let pending = pendingChanges
        let counts = [("inserted", pending.inserted.count), ("updated", pending.updated.count), ("deleted", pending.deleted.count)]
        let total = counts.reduce(0) { $0 + $1.1 }
        let parts = counts.filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }
        guard total > 0 else { return "pending changes" }
        return "\(total) pending change\(total == 1 ? "" : "s") (\(parts.joined(separator: ", ")))"
    }

    /// Objects by key, then entity name: objects of two entities share keys, and a
    /// dictionary's order changes from run to run, so the key alone left `.changes` and
    /// the end-of-run note listing `Tag/1` and `Item/1` in either order.
    /// Each key is read once, not at every comparison, and names only for equal keys.
    /// The comparison is a function of its own, with its types written out: as one
    /// closure over tuples it took the type checker 5-12 seconds, on every build.
    static func inKeyOrder(_ objects: some Sequence<ManagedObject>) -> [ManagedObject] {
        let keyed: [KeyedObject] = objects.map { KeyedObject(key: $0.primaryKey ?? 0, object: $0) }
        return keyed.sorted(by: KeyedObject.precedes).map(\.object)
    }

    private struct KeyedObject {
        let key: Int64
        let object: ManagedObject

        static func precedes(_ a: KeyedObject, _ b: KeyedObject) -> Bool {
            if a.key != b.key { return a.key < b.key }
            return a.object.entity.name < b.object.entity.name
        }
    }

    /// Objects by key (read once each, not at every comparison): the order a save writes them in.
    static func byKey(_ objects: some Sequence<ManagedObject>) -> [ManagedObject] {
        objects.map { (key: $0.primaryKey ?? 0, object: $0) }.sorted { $0.key < $1.key }.map(\.object)
    }

    /// Whether many-to-many links are added or removed.
    package var hasPendingLinks: Bool { !unsaved.links.isEmpty }

    /// Whether members of an ordered relationship were placed by position.
    package var hasPendingOrders: Bool { !unsaved.orders.isEmpty }

    public var hasChanges: Bool {
        !unsaved.isEmpty
    }

    /// The object for a row read as Quarry's values (`StoreConnection.rows`): the registered
    /// one when the row is already in use (its unsaved changes kept), a new one otherwise.
    /// Columns: key, then attributes.
    public func object(for entity: EntityDescription, values: [Value]) throws -> ManagedObject {
        let keyColumn = mapped(entity).keyColumn
        guard let key = values.first else { throw StoreError.missingColumn(table: entity.name, column: keyColumn) }
        let primaryKey = try key.storedInteger(table: entity.name, column: keyColumn)
        if let existing = registeredObject(entity: entity.name, primaryKey: primaryKey) { return existing }
        return try object(for: entity, storedRow: values.map(\.storedForm))
    }

    /// The same for a row whose values are in storage form (`Value.storedForm`: see
    /// `RowBatch`), which the object keeps as its row. `ownTag`: the row's entity column,
    /// when read with it (else, for an entity with sub-entities, a query reads it).
    /// `unregistered`: the caller found no object registered for the row just before;
    /// `root`: the hierarchy's root, where the caller knows it (`RowBatch.identityRoot`).
    package func object(
        for entity: EntityDescription, storedRow values: [Value], ownTag: Value? = nil, unregistered: Bool = false, root: String? = nil
    ) throws -> ManagedObject {
        // A foreign file's key column may hold anything (a WITHOUT ROWID table's INTEGER
        // PRIMARY KEY is no rowid alias): such a row cannot be an object.
        guard case .integer(let primaryKey)? = values.first else {
            throw StoreError.database(
                message:
                    "\(entity.name).\(mapped(entity).keyColumn) holds \(values.first.map(\.storedDescription) ?? "nothing") where an integer key is expected"
            )
        }
        // The hierarchy's root looked up once, for the lookup and the registration (each
        // copied the store's model, for each of the 20,000 objects a loop fetched).
        let root = root ?? rootName(of: entity.name)
        if !unregistered, let existing = identityMap.object(root: root, key: primaryKey) { return existing }
        // A row of a parent's results that is a sub-entity's is made as that entity, read
        // through its own view, so one row is one object whatever it was fetched as.
        if hasSubentities(entity.name),
            let own = try ownTag.map({ ownEntity(of: entity, tag: $0) }) ?? rowEntity(of: entity, primaryKey: primaryKey), own.name != entity.name
        {
            if let mapped = self.values(values, of: entity, as: own) { return try object(for: own, storedRow: mapped) }
            let sql = "SELECT \(mapped(own).selection(of: own)) FROM \(mapped(own).table) WHERE \(mapped(own).key) = ?"
            if let row = try connection.row(sql, arguments: [.integer(primaryKey)]) {
                return try object(for: own, storedRow: row.map(\.storedForm))
            }
        }
        let object = ManagedObject(entity: entity, primaryKey: primaryKey, row: values, context: self)
        identityMap.register(object, root: root, key: primaryKey)
        return object
    }

    /// The object already registered for a row, if any (no query). Rows of one hierarchy
    /// share their root's keys, so they are registered under the root.
    public func registeredObject(entity: String, primaryKey: Int64) -> ManagedObject? {
        identityMap.object(root: rootName(of: entity), key: primaryKey)
    }
    /// The same by the hierarchy's root, known to the caller (no lookup in the model).
    func registeredObject(root: String, primaryKey: Int64) -> ManagedObject? { identityMap.object(root: root, key: primaryKey) }

    /// One entity's registrations (their objects may be gone): its hierarchy's.
    func registrations(of entity: String) -> [Int64: IdentityMap.WeakObject]? { identityMap.registrations(root: rootName(of: entity)) }

    /// The object with this primary key, registered once like any fetched object.
    public func object(entityName: String, primaryKey: Int64) throws -> ManagedObject? {
        let entity = try entity(named: entityName)
        let storage = mapped(entity)
        if let numbered = storage.numberedRows, !numbered.owner.isEmpty {
            // Rows known by a number made from their key, whose engine checks for two keys
            // with one number as it meets them (a SQLite file's: `KeyNumbers`): found by the
            // key where the connection learned it, else by every row's number, read to the
            // end so that two keys with this number fail the read rather than one of them
            // be given. (A PostgreSQL table's keys are checked at open.)
            let rows = try connection.rows(
                sqlDialect.rowsByKey(storage.selection(of: entity), of: storage, count: 1), arguments: [.integer(primaryKey)])
            guard let row = rows.first else { return nil }
            return try object(for: entity, values: row)
        }
        let sql = "SELECT \(storage.selection(of: entity)) FROM \(storage.table) WHERE \(storage.key) = ?"
        guard let row = try connection.row(sql, arguments: [.integer(primaryKey)]) else { return nil }
        return try object(for: entity, values: row)
    }

    /// The rows of `entity` with these keys, by key, as the store reads them (in storage
    /// form, `Value.storedForm`).
    func storedRows(of entity: EntityDescription, keys: [Int64]) throws -> [Int64: [Value]] {
        try store.rows(of: entity, keys: keys, session: session)
    }

    func register(_ object: ManagedObject) {
        guard let primaryKey = object.primaryKey else { return }
        identityMap.register(object, root: rootName(of: object.entity.name), key: primaryKey)
    }

    /// The same, with the root of the object's hierarchy known (`SavedEntities`).
    func register(_ object: ManagedObject, root: String) {
        guard let primaryKey = object.primaryKey else { return }
        identityMap.register(object, root: root, key: primaryKey)
    }

    func unregister(_ object: ManagedObject) {
        guard let primaryKey = object.primaryKey else { return }
        identityMap.unregister(root: rootName(of: object.entity.name), key: primaryKey)
    }

    /// Forgets every object of `entity` in use: its rows are known by other keys now (a
    /// view another program redefined), so an object read before names no row for sure.
    /// They are detached, as a deleted object is; the next read makes objects anew.
    package func forgetObjects(of entity: String) {
        for key in registeredKeysByEntity()[entity] ?? [] {
            guard let object = registeredObject(entity: entity, primaryKey: key) else { continue }
            unregister(object)
            object.context = nil
        }
        bumpGeneration()
    }

    /// The keys of the objects in use, by entity, in order.
    package func registeredKeysByEntity() -> [String: [Int64]] { identityMap.keysByEntity() }

    /// Forgets registrations whose objects are gone.
    func pruneRegistrations() { identityMap.prune() }

    package func bumpGeneration() {
        observers.generation += 1
        unsaved.touches.restart(at: pendingGeneration)
        stateMoved()
    }
}

extension ObjectContext {
    /// Where `entity`'s rows are in the file (see `StoreMapping`).
    public func mapped(_ entity: EntityDescription) -> EntityStorage { mapping.storage(of: entity) }
}
