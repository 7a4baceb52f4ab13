import QuarryEngine
import QuarryModel

/// The context's side of its store: which store is behind it, and what the layers above
/// may ask of it.
extension ObjectContext {
    /// Puts `newStore` behind the context, its model and mapping as it holds them.
    func adopt(_ newStore: any PersistentStore) {
        store = newStore
    }

    /// The SQL the store speaks, for the predicate and fetch layers' SQL.
    public var sqlDialect: any SQLDialect { store.dialect }

    /// What the store behind the context can do, for layers that must not ask its kind.
    public var capabilities: StoreCapabilities {
        guard store.modelAsRead != nil else { return [] }
        // SwiftData names its stores `default.store`; Core Data's templates `.sqlite`.
        return (path ?? "").hasSuffix(".store") ? [.appModel, .swiftData] : [.appModel]
    }

    /// The model an app compiled and wrote the store with (its class names), when the
    /// store has one (`StoreCapabilities.appModel`).
    public var appModel: CoreDataModel? { store.modelAsRead }

    /// For each entity `sql` reads whose rows the store lays out in tables of its own (a
    /// Core Data store's Z-tables), the SQL that reads them: what `explain` adds.
    public func tablesRead(by sql: String) -> [(entity: String, sql: String)] {
        store.tableSQL(readBy: sql)
    }

    /// The engine behind the context as the REPL's banner names it, without secrets.
    public var engineDescription: String {
        connection.engineDescription
    }

    // `history{}`: the transactions recorded in the store, as its kind of store keeps them
    // (Quarry's own `quarry_history`, or a Core Data store's persistent history).

    /// The token of the latest recorded transaction (0 when there is none).
    public func historyToken() throws -> Int64 {
        try store.historyToken(session: session)
    }

    /// Transactions after `since` (all when nil), optionally by one author, oldest first.
    public func history(since: Int64? = nil, author: String? = nil) throws -> [HistoryTransaction] {
        try store.history(since: since, author: author, session: session)
    }

    /// Forgets transactions up to and including `token`; returns how many.
    @discardableResult
    public func pruneHistory(through token: Int64) throws -> Int {
        if isReadOnly { throw StoreError.readOnly(operation: "history.prune") }
        return try store.pruneHistory(through: token, session: session)
    }
}

/// Column formats of a file Quarry did not create (`ColumnFormats`), as `format()` asks.
extension ObjectContext {
    /// `format("Invoice", "InvoiceDate", "iso-space")`: declares how a column of a file
    /// Quarry did not create keeps its values, for a column whose values show no one format
    /// (or to override what they show). Kept in the file's sidecar (`keep`), so reopening
    /// declares it again. A time layout (`unix-ms`, `webkit`, ...) on a number column makes
    /// the attribute a date; `never` is the stored number that reads as nil. `sampled`: a
    /// time unit is checked against the column's numbers (`refuseUnlikelyUnit`); a
    /// declaration replayed from the sidecar is not checked again. Returns a note on the
    /// column's text that the layout reads as no date (`unreadableDates`), refused when
    /// most of it is.
    @discardableResult
    public func declareFormat(
        _ entityName: String, _ column: String, _ name: String, never: Int64? = nil, keep: Bool = true, sampled: Bool = true
    ) throws -> String? {
        let (entity, attribute) = try formatColumn(entityName, column)
        // A column made a date by an earlier declaration is still the number column it was.
        let original = mapping.numberColumnsAsDates[entity.name]?[column] ?? attribute
        defer { bumpGeneration() }
        guard let format = ColumnFormat(name: name), format.fits(original.type) else {
            throw StoreError.invalidSchema(
                entity: entity.name,
                reason: "'\(ErrorRendering.part(name, limit: 60))' is no format for \(original.type.rawValue) column \(column): "
                    + Self.formatNames(for: original.type))
        }
        if case .isoText(let layout) = format, !layout.isWritable {
            throw StoreError.invalidSchema(
                entity: entity.name,
                reason: "'\(ErrorRendering.part(name, limit: 60))' has \(layout.fractionDigits) fraction digits; "
                    + "Quarry writes dates to at most \(ColumnFormat.ISOLayout.maxFractionDigits) (e.g. \(layout.writable.example))")
        }
        // Values pending in the old type would be written in the new one.
        if Self.described(original, as: format, scale: nil).type != attribute.type, hasChanges {
            throw StoreError.migrationRefused(
                entity: entity.name, reason: "there are unsaved changes; save() or rollback() before format() changes \(column)'s type")
        }
        // The key Quarry knows the rows by stays the number it is (Anki's `revlog.id`, a
        // time in milliseconds): made a date, no row could be found by it.
        if Self.described(original, as: format, scale: nil).type != original.type, let advice = keyTimeAdvice(entity, column, as: format) {
            throw StoreError.invalidSchema(entity: entity.name, reason: advice)
        }
        if never != nil, !format.isNumberTime {
            throw StoreError.invalidSchema(
                entity: entity.name,
                reason: "never is for times kept as numbers (\(ColumnFormat.numberTimeNames.joined(separator: ", "))), not '\(format.name)'")
        }
        // What the engine's typed columns take (a server's: times in number columns).
        try store.refuseFormat(format, of: entity, original, session: session)
        if sampled { try refuseUnlikelyUnit(format, of: entity, column, type: original.type, never: never) }
        let note = try sampled ? unreadableDates(entity, original, as: format).map { try unreadableDatesNote($0, entity, column, as: format) } : nil
        // Kept first: a declaration that cannot be kept is not made.
        if keep {
            try store.keep(
                .format(ForeignSidecar.Format(entity: entity.name, column: column, format: format.name, never: never)), session: session)
        }
        mapping.declaredFormats[entity.name, default: [:]][column] = format
        var storage = mapped(entity)
        // Numbers in the column are read in the declared scale from now on (a number column
        // made a date, or "never", needs one even for Unix seconds, so that dictionaries and
        // groups read it as `comparable` does); another format reads none.
        let retyped = format.isNumberTime && (original.type != .date || never != nil)
        var scale = format.numericDateScale ?? (retyped ? .unixSeconds : nil)
        scale?.never = never
        if let unit = scale {
            let whole = [.int16, .int32, .int64].contains(original.type)
            scale?.typed = store.dialect.numberTime(unit, integerColumn: whole)
            scale?.wholeCounts = whole
        }
        storage.numericDates[column] = scale
        let described = Self.described(original, as: format, scale: storage.numericDates[column])
        if described != original {
            mapping.numberColumnsAsDates[entity.name, default: [:]][column] = original
        } else {
            mapping.numberColumnsAsDates[entity.name]?[column] = nil
        }
        mapping.place(entity.name, storage)
        guard described != attribute else { return note }
        var changed = entity
        changed.replaceAttribute(described)
        remember(changed)
        reread(column, of: changed)
        return note
    }

    /// Objects of `entity` in use read `column` again, in its new type and scale: kept
    /// values of a redescribed object stay as they were read (`redescribe`), and an
    /// integer of milliseconds is no date of seconds.
    private func reread(_ column: String, of entity: EntityDescription) {
        var objects: [(key: Int64, object: ManagedObject)] = []
        for box in registrations(of: entity.name)?.values ?? [:].values {
            if let object = box.object, object.entity.name == entity.name, let key = object.primaryKey { objects.append((key, object)) }
        }
        guard !objects.isEmpty else { return }
        // An object whose row cannot be read again reads as nil rather than a misread number.
        let rows = (try? storedRows(of: entity, keys: objects.map(\.key))) ?? [:]
        for (key, object) in objects {
            object.commit(column, rows[key].map { values(of: entity, row: $0)[column] ?? .null } ?? .null)
        }
    }

    /// Attribute `original` (as the file's schema describes it) under `format`: a number
    /// column holding times is a date, optional when a number means "never" (nil is
    /// written as that number), its default read in the column's scale.
    private static func described(
        _ original: AttributeDescription, as format: ColumnFormat, scale: EntityStorage.NumericDateScale?
    ) -> AttributeDescription {
        // ISO text in a column declared TEXT (Kodi's `dateAdded`) is a date once declared.
        let isoText: Bool
        if case .isoText = format { isoText = original.type == .string } else { isoText = false }
        guard format.isNumberTime || isoText, original.type != .date else { return original }
        var date = original
        date.type = .date
        if scale?.never != nil { date.isOptional = true }
        date.defaultValue = original.defaultValue.map { value in
            let seconds: Double?
            switch value {
            case .integer(let i): seconds = scale.map { $0.seconds(i) } ?? Double(i)
            case .real(let d): seconds = scale.map { $0.seconds(d) } ?? d
            case .text: return AttributeType.date.decode(value)
            default: return value
            }
            return seconds.map(Value.date) ?? .null
        }
        if date.defaultValue == .null { date.defaultValue = nil }
        return date
    }

    /// The formats `declareFormat` takes for a column of `type`.
    static func formatNames(for type: AttributeType) -> String {
        let times = ColumnFormat.numberTimeNames
        switch type {
        case .date:
            return "iso-space, iso-t, iso-date, an example such as 2021-01-01T00:00:00.000Z or the basic 20210101, "
                + times.dropLast().joined(separator: ", ")
                + " or julian"
        case .int16, .int32, .int64, .double, .decimal: return "plain, or a time layout: " + times.joined(separator: ", ")
        case .bool: return "0/1 or a pair of texts such as Y/N or true/false"
        case .string:
            return "iso-space, iso-t, iso-date, an example such as 20210101 (text dates), uuid, UUID, uuid-compact, UUID-COMPACT, uuid-blob or plain "
                + "(no format makes text a number: sql() reads it as one, CAST(column AS REAL))"
        case .uuid: return "uuid, UUID, uuid-compact, UUID-COMPACT, uuid-blob or plain"
        case .binary: return "uuid-blob or plain"
        default: return "plain"
        }
    }

    /// `format("Invoice", "InvoiceDate")`: the format Quarry writes the column in, declared
    /// or read from its values (the store says); nil for Quarry's own stores, whose
    /// encoding is fixed.
    public func columnFormat(_ entityName: String, _ column: String) throws -> String? {
        let entity = try entity(named: entityName)
        guard takesFormats(entity) else { return nil }
        let (_, attribute) = try formatColumn(entityName, column)
        return try store.columnFormat(of: entity, attribute, session: session)
    }

    /// A view of the file takes a format too: it governs reading (a column of times read
    /// and compared as dates) as well as writing, which the view refuses anyway.
    package func formatColumn(_ entityName: String, _ column: String) throws -> (EntityDescription, AttributeDescription) {
        let entity = try entity(named: entityName)
        guard takesFormats(entity) else {
            throw StoreError.invalidSchema(
                entity: entity.name,
                reason:
                    "\(entity.name) is kept in its store's own encoding, which format() does not change (it declares the columns of another program's tables)"
            )
        }
        guard let attribute = entity.attribute(named: column) else { throw entity.unknownKey(column) }
        return (entity, attribute)
    }

    /// Another program's table or view, whose columns keep its own formats: a file's, or
    /// a server schema's table Quarry did not define (its typed columns take fewer:
    /// `PersistentStore.refuseFormat`).
    private func takesFormats(_ entity: EntityDescription) -> Bool {
        switch mapped(entity).layout {
        // A table of a database whose columns hold their types may be Quarry's own.
        case .foreignTable where mapped(entity).columnsHoldTheirTypes: return store.isOtherProgramsTable(entity.name)
        case .foreignTable, .foreignView: return true
        default: return false
        }
    }
}
