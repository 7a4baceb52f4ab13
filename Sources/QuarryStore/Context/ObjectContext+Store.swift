import QuarryModel
import QuarryModelFiles

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
        try store.historyToken(context: self)
    }

    /// Transactions after `since` (all when nil), optionally by one author, oldest first.
    public func history(since: Int64? = nil, author: String? = nil) throws -> [HistoryTransaction] {
        try store.history(since: since, author: author, context: self)
    }

    /// Forgets transactions up to and including `token`; returns how many.
    @discardableResult
    public func pruneHistory(through token: Int64) throws -> Int {
        if isReadOnly { throw StoreError.readOnly(operation: "history.prune") }
        return try store.pruneHistory(through: token, context: self)
    }
}

/// Column formats of a file Quarry did not create (`ColumnFormats`), as `format()` asks.
extension ObjectContext {
    /// `format("Invoice", "InvoiceDate", "iso-space")`: declares how a column of a file
    /// Quarry did not create keeps its values, for a column whose values show no one format
    /// (or to override what they show). Kept in the file's sidecar (`keep`), so reopening
    /// declares it again.
    public func declareFormat(_ entityName: String, _ column: String, _ name: String, keep: Bool = true) throws {
        let (entity, attribute) = try formatColumn(entityName, column)
        guard let format = ColumnFormat(name: name), format.fits(attribute.type) else {
            throw StoreError.invalidSchema(
                entity: entity.name,
                reason: "'\(ErrorRendering.part(name, limit: 60))' is no format for \(attribute.type.rawValue) column \(column): "
                    + Self.formatNames(for: attribute.type))
        }
        if case .isoText(let layout) = format, !layout.isWritable {
            throw StoreError.invalidSchema(
                entity: entity.name,
                reason: "'\(ErrorRendering.part(name, limit: 60))' has \(layout.fractionDigits) fraction digits; "
                    + "Quarry writes dates to at most \(ColumnFormat.ISOLayout.maxFractionDigits) (e.g. \(layout.writable.example))")
        }
        // Kept first: a declaration that cannot be kept is not made.
        if keep {
            try store.keep(.format(ForeignSidecar.Format(entity: entity.name, column: column, format: format.name)), context: self)
        }
        mapping.declaredFormats[entity.name, default: [:]][column] = format
        // Numbers in the column are read in the declared scale from now on.
        if attribute.type == .date {
            var storage = mapped(entity)
            storage.numericDates[column] = format.numericDateScale
            mapping.place(entity.name, storage)
        }
    }

    /// The formats `declareFormat` takes for a column of `type`.
    static func formatNames(for type: AttributeType) -> String {
        switch type {
        case .date: return "iso-space, iso-t, iso-date, an example such as 2021-01-01T00:00:00.000Z, unix, unix-real, unix-ms or julian"
        case .bool: return "0/1 or a pair of texts such as Y/N or true/false"
        case .string, .uuid: return "uuid, UUID, uuid-compact, UUID-COMPACT, uuid-blob or plain"
        case .binary: return "uuid-blob or plain"
        default: return "plain"
        }
    }

    /// `format("Invoice", "InvoiceDate")`: the format Quarry writes the column in, declared
    /// or read from its values (the store says); nil for Quarry's own stores, whose
    /// encoding is fixed.
    public func columnFormat(_ entityName: String, _ column: String) throws -> String? {
        let entity = try entity(named: entityName)
        guard mapped(entity).layout == .foreignTable else { return nil }
        let (_, attribute) = try formatColumn(entityName, column)
        return try store.columnFormat(of: entity, attribute, context: self)
    }

    package func formatColumn(_ entityName: String, _ column: String) throws -> (EntityDescription, AttributeDescription) {
        let entity = try entity(named: entityName)
        guard mapped(entity).layout == .foreignTable else {
            throw StoreError.invalidSchema(
                entity: entity.name,
                reason: mapped(entity).isView
                    ? "\(entity.name) is a view: its rows cannot be changed, so it has no format to declare"
                    : "\(entity.name) is Quarry's own: its formats are Quarry's")
        }
        guard let attribute = entity.attribute(named: column) else { throw entity.unknownKey(column) }
        return (entity, attribute)
    }
}
