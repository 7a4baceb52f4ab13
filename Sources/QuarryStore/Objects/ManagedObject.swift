import QuarryEngine
import QuarryModel

/// One row of an entity, as an object: its stored values, the changes not yet saved,
/// and its place in the context's bookkeeping.
public final class ManagedObject {
    /// Its entity as the model now describes it (see `redescribe`).
    public var entity: EntityDescription { described }
    /// The row's key; nil until the object's insert is saved.
    public internal(set) var primaryKey: Int64? {
        get { key }
        set { key = newValue }
    }
    // The state a save reads and writes for every object is kept in private storage behind
    // the public and package accessors: storage other modules cannot reach lets whole-module
    // optimization prove each access exclusive and drop its run-time check, which a
    // property visible to other modules keeps (`swift_beginAccess`, 9% of a save of 20,000
    // changed objects, issue 84). Exclusive access stays checked at run time wherever the
    // compiler cannot prove it.
    private var described: EntityDescription
    private var key: Int64?
    /// Distinguishes unsaved objects in `objectID` until they have a primary key.
    let temporaryNumber: Int
    /// The row as read, decoded a key at a time when it is used (a fault, in Core Data's
    /// terms): walking many objects for two attributes decodes two, not all. Its values
    /// are in storage form (`Value.storedForm`), whichever engine read them.
    private var row: [Value]?
    private var decoded: [String: Value]
    /// Values as last read from or written to the store.
    package var committed: [String: Value] {
        get {
            if let row {
                var all = decoded
                for key in entity.rowIndex.keys where all[key] == nil { all[key] = decode(key, from: row) }
                return all
            }
            return decoded
        }
        set {
            row = nil
            decoded = newValue
        }
    }

    /// Makes `values` committed for their keys, the rest as they were: the row decoded
    /// once and each value set in place (assigning `committed` a key at a time copied the
    /// whole dictionary for each; a save of 27,004 rows of 20 columns spent 8% there).
    func commit(_ values: [String: Value]) {
        if row != nil, decoded.isEmpty, commitInRow(values) { return }
        if let row { decodeRow(row) }
        // Changed apart from its storage, and put back (`pending`'s note).
        var all = takeDecoded()
        for (key, value) in values { all[key] = value }
        decoded = all
    }

    /// `decoded`, its storage left empty: a change made to the value taken out and put
    /// back leaves no access to the storage spanning other code, as one made in place
    /// would (`pending`'s note). Unique: changed in place, not copied.
    private func takeDecoded() -> [String: Value] {
        let all = decoded
        decoded = [:]
        return all
    }

    /// `commit` into the row as read, each value put in its column in storage form, when
    /// every one is an attribute's value that reads back as itself (`AttributeType.decode`):
    /// the row stays undecoded, and a later save's UPDATE may compare the stored row with
    /// it (`rowAsRead`). Decoding the row into a dictionary for each object was most of
    /// applying a save of 20,000 changed objects. False, changing nothing, otherwise.
    /// Only types whose columns keep a value as bound (text, integers, reals): a decimal's
    /// text in a column of numbers would not compare equal with the stored row.
    private func commitInRow(_ values: [String: Value]) -> Bool {
        guard var row else { return false }
        let index = entity.rowIndex
        let attributes = entity.attributes
        // One value (a save of changed objects commits each one's change): its key looked
        // up once, not once to check it and again to place it (issue 84).
        if values.count == 1, let (key, value) = values.first {
            guard let column = Self.column(of: key, value, index: index, attributes: attributes, width: row.count) else { return false }
            self.row = nil
            row[column] = value.storedForm
            self.row = row
            return true
        }
        for (key, value) in values where Self.column(of: key, value, index: index, attributes: attributes, width: row.count) == nil {
            return false
        }
        // Dropped first, so that the row's storage is changed in place, not copied.
        self.row = nil
        for (key, value) in values {
            if let column = index[key] { row[column] = value.storedForm }
        }
        self.row = row
        return true
    }

    /// The column of a row `width` cells wide where attribute `key`'s `value` is kept as
    /// bound and reads back as itself; nil when there is none (`commitInRow`).
    private static func column(
        of key: String, _ value: Value, index: [String: Int], attributes: [AttributeDescription], width: Int
    ) -> Int? {
        guard let column = index[key], column >= 1, column <= attributes.count, column < width,
            keptAsBound(attributes[column - 1].type), attributes[column - 1].type.decode(value.storedForm) == value
        else { return nil }
        return column
    }

    /// Whether a column of `type` in a row keeps a value in the storage form it was bound in.
    private static func keptAsBound(_ type: AttributeType) -> Bool {
        switch type {
        case .string, .int16, .int32, .int64, .double, .bool, .date: return true
        case .decimal, .uuid, .binary, .json: return false
        }
    }

    /// `commit` of one value, set in place (a dictionary made for each was a tenth of
    /// applying a save of 20,000 new objects' read-back keys, issue 62).
    func commit(_ key: String, _ value: Value) {
        if let row { decodeRow(row) }
        var all = takeDecoded()
        all[key] = value
        decoded = all
    }

    /// Every key of `row` decoded into `decoded` (keys it holds already are kept), then the
    /// row dropped: in one pass over the row's index, each attribute found by its column,
    /// into a dictionary made at its size (looking each key up again, and growing the
    /// dictionary twice, was most of applying a save of 50,000 changed objects).
    private func decodeRow(_ row: [Value]) {
        let index = entity.rowIndex
        let attributes = entity.attributes
        var all = takeDecoded()
        let fresh = all.isEmpty
        if fresh { all = Dictionary(minimumCapacity: index.count) }
        for (key, column) in index where column < row.count && (fresh || all[key] == nil) {
            all[key] = column >= 1 && column <= attributes.count ? attributes[column - 1].type.decode(row[column]) : row[column]
        }
        decoded = all
        self.row = nil
    }

    /// The committed values of `keys` (nil as `.null`): what observers hear as a save's
    /// old values, without decoding the rest of the row.
    func committedValues(of keys: some Sequence<String>) -> [String: Value] {
        var values: [String: Value] = [:]
        for key in keys { values[key] = committedValue(key) ?? .null }
        return values
    }

    package func committedValue(_ key: String) -> Value? {
        if let row { return decode(key, from: row) }
        return decoded[key]
    }

    /// `committedValue` of `attribute`, named `key` and found in column `column` of the
    /// entity's rows by the caller: the key is not looked up again in the row.
    private func committedValue(_ key: String, column: Int, _ attribute: AttributeDescription) -> Value? {
        if let row { return column < row.count ? attribute.type.decode(row[column]) : nil }
        return decoded[key]
    }

    private func decode(_ key: String, from row: [Value]) -> Value? {
        // The key looked up once: its place says whether it is an attribute (asking
        // `attribute(named:)` hashed the key again, for each value a save compared).
        let entity = self.entity
        guard let index = entity.rowIndex[key], index < row.count else { return nil }
        let attributes = entity.attributes
        return index >= 1 && index <= attributes.count ? attributes[index - 1].type.decode(row[index]) : row[index]
    }
    /// Takes `entity`'s new description (it was redefined while this object was in use).
    /// The values as read stay for the keys both layouts have: they are the snapshot a
    /// save compares with the store, and what tells observers of a change by another
    /// connection, so reading them again here would hide that change. Keys only the new
    /// layout has (a migration's new column, a `relate`d to-one's key) come from `stored`,
    /// the row read again in it; keys it dropped go.
    func redescribe(as entity: EntityDescription, stored: [String: Value]?) {
        var values = committed.filter { entity.rowIndex[$0.key] != nil }
        for (key, value) in stored ?? [:] where self.entity.rowIndex[key] == nil { values[key] = value }
        // A nil the migration filled with the default of an attribute it made required
        // (found by review: objects in use kept showing nil).
        // Only the default itself: another value is another connection's change, which
        // `refresh` must still find and report.
        for attribute in entity.attributes where !attribute.isOptional && (values[attribute.name] ?? .null).isNull {
            guard let fill = attribute.defaultValue.flatMap({ try? attribute.type.coerce($0).get() }),
                let stored = stored?[attribute.name], stored == fill
            else { continue }
            values[attribute.name] = stored
        }
        committed = values
        self.described = entity
    }

    /// After a save: a link column written as an attribute (`author_id = 1`) is its
    /// to-one relationship's stored value now, read from `pending` before it is cleared.
    func commitLinkColumns(of entity: EntityDescription) {
        for relationship in entity.toOneRelationships {
            if let column = relationship.column, let value = pending[column] { commit(relationship.name, value) }
        }
    }

    /// Values assigned since then.
    package var pending: [String: Value] {
        get { pendingValues }
        // The dictionary is taken out of its storage while the caller changes it (in place:
        // a get and a set would copy it for each value assigned), so that no access to the
        // storage spans the caller's code, which would keep its run-time check (`described`).
        _modify {
            var values = pendingValues
            pendingValues = [:]
            defer {
                pendingValues = values
                forgetReadValuesNoLongerPending()
            }
            yield &values
        }
    }
    /// To-one relationships assigned since then: the object, or nil for none.
    package var pendingToOne: [String: ManagedObject?] {
        get { pendingLinks }
        // As `pending`.
        _modify {
            var links = pendingLinks
            pendingLinks = [:]
            defer {
                pendingLinks = links
                forgetReadValuesNoLongerPending()
            }
            yield &links
        }
    }
    private var pendingValues: [String: Value] = [:]
    private var pendingLinks: [String: ManagedObject?] = [:]

    /// For a key with a pending change whose committed value another connection's commit
    /// moved since (noticed at the prompt or at `refresh()`), the value the change was
    /// made against. A save compares the store with these, not with what the object shows
    /// now: comparing with the moved value, `save()` wrote "Mine" over the other
    /// program's "Theirs" without a word (issue 61). Only keys still pending have one.
    private var readValues: [String: Value] = [:]

    /// The row as read, in storage form, while it still holds every value a save expects
    /// the store to hold (`expectedStoredValue` of each key is its value decoded): nil once
    /// the row was decoded or committed anew, or when a pending change was made against a
    /// value another connection has moved since (`readValues`). A save's UPDATE may then
    /// compare the stored row with it as it writes (`SQLiteSaveStatements`).
    package var rowAsRead: [Value]? { readValues.isEmpty ? row : nil }

    /// The value a save expects the store to hold for `key`: the one a pending change was
    /// made against, or the committed value.
    package func expectedStoredValue(_ key: String) -> Value? {
        // Asked first whether there are any: looking a key up hashes it even in an empty dictionary.
        (readValues.isEmpty ? nil : readValues[key]) ?? committedValue(key)
    }

    /// Takes `fresh` (the row as another connection left it) as the committed values,
    /// first keeping what the pending changes were made against (`readValues`). A pending
    /// delete was made against the whole row: every key the other connection moved keeps
    /// its value, so the save meets their change as a conflict (issue 61).
    func commitOutsideChange(_ fresh: [String: Value]) {
        let madeAgainst = isDeleted ? Set(fresh.keys) : Set(pending.keys).union(pendingToOne.keys)
        // Changed apart from its storage, and put back (`pending`'s note).
        var against = readValues
        readValues = [:]
        for key in madeAgainst where against[key] == nil {
            let was = committedValue(key) ?? .null
            if !Value.sameStored(was, fresh[key] ?? .null) { against[key] = was }
        }
        readValues = against
        committed = fresh
    }

    /// A change saved, rolled back or set back: what it was made against goes with it,
    /// so a later change to the key starts from the committed value.
    private func forgetReadValuesNoLongerPending() {
        // A pending delete keeps them all, until it is saved or rolled back (which
        // undeletes the object before clearing `pending`).
        guard !readValues.isEmpty, !isDeleted else { return }
        readValues = readValues.filter { pending[$0.key] != nil || pendingToOne[$0.key] != nil }
    }
    public internal(set) var isInserted: Bool {
        get { inserted }
        set { inserted = newValue }
    }
    private var inserted = false
    /// Marked for deletion: set by a delete, and still set once the delete is saved (or
    /// the row went another way), which the store's own logic reads. What a user asks
    /// is `isPendingDelete`.
    public internal(set) var isDeleted: Bool {
        get { deleted }
        set { deleted = newValue }
    }
    private var deleted = false
    /// Core Data's `isDeleted`: deleted and not yet saved. False once a save wrote the
    /// delete (the object is then in no context), as for a row gone by `deleteall` or
    /// another program, which Core Data's object never marks.
    public var isPendingDelete: Bool { isDeleted && context != nil }
    /// Its context, reached through the context's link (`ContextLink`): nil once the
    /// context is gone.
    var context: ObjectContext? {
        get { link?.context }
        set { link = newValue?.link }
    }
    private var link: ContextLink?
    /// Its entry in its context's identity map, emptied as the object goes (a `weak`
    /// reference's work, without its side table: `IdentityMap.WeakObject`).
    var registration: IdentityMap.WeakObject?

    deinit { registration?.object = nil }
    /// The objects loaded with this one, whose relationships load together.
    var loadGroup: LoadGroup?
    /// The context the object lives in; nil once it is deleted and saved, or rolled back.
    public var managedObjectContext: ObjectContext? { context }

    init(entity: EntityDescription, primaryKey: Int64?, temporaryNumber: Int, committed: [String: Value], context: ObjectContext) {
        self.described = entity
        self.key = primaryKey
        self.temporaryNumber = temporaryNumber
        self.decoded = committed
        self.link = context.link
    }

    /// An object of a row read whole, its values in storage form (`Value.storedForm`).
    init(entity: EntityDescription, primaryKey: Int64, row: [Value], context: ObjectContext) {
        self.described = entity
        self.key = primaryKey
        self.temporaryNumber = 0
        self.decoded = [:]
        self.row = row
        self.link = context.link
    }

    /// An object that stands for one of another process's (the Swift reader reads a
    /// `#Predicate`'s captured objects as these and sends them back by number): of no
    /// context, never stored, with no values.
    package init(standingFor entity: EntityDescription) {
        self.described = entity
        self.key = nil
        self.temporaryNumber = 0
        self.decoded = [:]
    }

    /// Whether this object came from another store than `context`'s (one since closed by
    /// `.open`, or another open one): its key would name an unrelated row there. A deleted
    /// object, which has left its context, is not foreign.
    public func isForeign(to context: ObjectContext) -> Bool {
        if let own = self.context { return own !== context }
        return !isDeleted
    }

    /// The key predicates compare objects by: the primary key, or for an unsaved object a
    /// negative stand-in no stored row has.
    public var identityKey: Int64 { primaryKey ?? (Int64.min + Int64(temporaryNumber)) }

    /// `"Item/42"` once saved; `"Item/t3"` (temporary) before. A row of a table keyed by
    /// one text or UUID column is named by its key (`"airlines/VX"`, `ObjectIDKey`).
    public var objectID: String {
        guard let primaryKey else { return "\(entity.name)/t\(temporaryNumber)" }
        if let shownKey { return "\(entity.name)/\(shownKey)" }
        // A saved row's key does not change (`refuseKeyChanges`): worked out once.
        if let name = context?.mapped(entity).namingKey(of: entity), case .text(let key)? = committedValue(name) {
            shownKey = ObjectIDKey.escaped(key)
            return "\(entity.name)/\(shownKey ?? "")"
        }
        return "\(entity.name)/\(primaryKey)"
    }
    /// The ID Quarry's history records: by the row's number always, as inserted rows are
    /// recorded and as `refreshFromStore` reads IDs back (a text key's `objectID` would
    /// not read back as a number).
    package var historyID: String {
        guard let primaryKey else { return objectID }
        // Not interpolated: that formatted the key through `description`, dynamically
        // (a save of 20,000 changed objects records as many IDs).
        return entity.name + "/" + String(primaryKey)
    }
    /// The key `objectID` shows, escaped, once worked out (nil: by number, or not yet).
    private var shownKey: String?

    /// An object no context holds (deleted and saved, or an insert rolled back) has none,
    /// as Core Data's `hasChanges` is false once the save wrote the delete.
    public var hasChanges: Bool { context != nil && (isInserted || isDeleted || !pending.isEmpty || !pendingToOne.isEmpty) }

    /// The current value of an attribute, pending change included.
    public func value(forKey key: String) throws -> Value {
        guard entity.attribute(named: key) != nil else { throw entity.unknownKey(key) }
        return currentValue(key)
    }

    package func currentValue(_ key: String) -> Value {
        pending[key] ?? committedValue(key) ?? .null
    }

    /// Assigns an attribute after checking the value against its type; the change is
    /// pending until the context saves.
    public func setValue(_ value: Value, forKey key: String) throws {
        // Read once: each use of the stored description copied all of it; the context is
        // reached through its link and its mapping a lookup by entity name.
        let entity = self.entity
        // The attribute and its column in the row found by one lookup of the key, as
        // `writableAttribute(named:)` finds it (it and `committedValue` each hashed the key).
        guard let column = entity.rowIndex[key], column >= 1, column <= entity.attributes.count,
            entity.subentityKeys.isEmpty || !entity.subentityKeys.contains(key)
        else { throw entity.unknownKey(key) }
        let attribute = entity.attributes[column - 1]
        let context = self.context
        let storage = context?.mapped(entity)
        if storage?.isView == true { throw StoreError.viewIsReadOnly(entity: entity.name) }
        if isDeleted { throw StoreError.objectDeleted(objectID: objectID) }
        guard let context, let storage else { throw StoreError.objectDeleted(objectID: objectID) }
        if context.isClosed { throw StoreError.closed }
        var coerced = try Self.coerced(value, to: attribute, key, of: entity, storage: storage)
        if isInserted {
            pending[key] = coerced
        } else {
            let committed = committedValue(key, column: column, attribute) ?? .null
            // A double attribute's cell held as an integer (`AttributeType.decode`) given the
            // same number again is no change: 21000 and 21000.0 are one value.
            if case .integer(let i) = committed, case .real(let d) = coerced, Int64(exactly: d) == i { coerced = committed }
            // The key column of a table Quarry did not create is the object's identity: a saved
            // object keeping its ID while its row moved to another key would be two objects.
            if coerced != committed, key == storage.keyColumn { throw Self.keyKept(self, key) }
            // A row known by a number made from its key (WITHOUT ROWID, a server's text key)
            // keeps its key: refused here, the object as it was, rather than at the save.
            if !Value.sameStored(coerced, committed), !storage.keyChanges([key]).isEmpty {
                throw EntityStorage.keyChangeRefusal(entity.name, key, atSave: false)
            }
            pending[key] = coerced == committed ? nil : coerced
        }
        // A foreign key column written as an attribute (author_id) is the link: a target
        // set before through the relationship no longer stands.
        if !pendingToOne.isEmpty {
            for relationship in entity.toOneRelationships where relationship.keepsLink(in: key) { pendingToOne[relationship.name] = nil }
        }
        context.noteChanged(self, valuesOnly: true)
    }

    /// `setValue` for an object `ObjectContext.insert` is making, of `entity` (its own): the
    /// checks it made once for the object (not a view's; new, so neither deleted nor
    /// outside a context, its key not yet kept) are not made again for each value, and
    /// the context hears of the object once, as it is inserted. Refusals are `setValue`'s,
    /// in its order. `storage`: where the entity's rows are, as the insert looked it up.
    func setNewValue(_ value: Value, forKey key: String, of entity: EntityDescription, storage: EntityStorage) throws {
        guard let attribute = entity.writableAttribute(named: key) else { throw entity.unknownKey(key) }
        try checkStoreOpen()
        pending[key] = try Self.coerced(value, to: attribute, key, of: entity, storage: storage)
        // A link kept in the column set before through its relationship no longer stands.
        guard !pendingToOne.isEmpty else { return }
        for relationship in entity.toOneRelationships where relationship.keepsLink(in: key) { pendingToOne[relationship.name] = nil }
    }

    /// Refuses a change to an object whose store `.open` closed: no save can reach it, so
    /// accepting the change would lose it without a word.
    func checkStoreOpen() throws {
        if context?.isClosed == true { throw StoreError.closed }
    }

    /// Changed keys with their old (stored) and new values.
    public var changes: [(key: String, old: Value, new: Value)] {
        pending.keys.sorted().map { ($0, committedValue($0) ?? .null, pending[$0]!) }
    }

    /// All attributes with their current values, in the entity's order.
    public var values: [(key: String, value: Value)] {
        entity.attributes.map { ($0.name, currentValue($0.name)) }
    }

    /// Whether attribute `key` is a column of days (a server's `date`): its dates are
    /// midnights in UTC, shown as their day.
    public func keepsDays(_ key: String) -> Bool {
        context?.mapped(entity).dayColumns.contains(key) ?? false
    }

    /// `values` as an object's display and a results table show them: a server's `date`
    /// column (days alone, read as midnight UTC) as its day, `2013-01-01`, not as an
    /// instant. The values themselves stay dates (Lua, comparisons, exports).
    public var shownValues: [(key: String, value: Value)] {
        guard let days = context?.mapped(entity).dayColumns, !days.isEmpty else { return values }
        return values.map { entry in
            guard days.contains(entry.key), case .date(let seconds) = entry.value else { return entry }
            return Value.dayText(seconds).map { (entry.key, .text($0)) } ?? entry
        }
    }
}
