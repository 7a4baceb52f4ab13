import GRDB

/// The formats of one write (a save, an updateall), decided once per column for it.
struct ColumnFormats {
    var byColumn: [String: [String: ColumnFormat]] = [:]
}

extension ObjectContext {
    /// Rows read from each end of a table (by its key) to learn a column's format: a
    /// bounded read, however big the table; of these, up to `formatSample` non-null values.
    static let formatScan = 5000
    static let formatSample = 300

    /// `format("Invoice", "InvoiceDate", "iso-space")`: declares how a column of a file
    /// Quarry did not create keeps its values, for a column whose values show no one format
    /// (or to override what they show). Kept in the file's sidecar (`keep`), so reopening
    /// declares it again.
    public func declareFormat(_ entityName: String, _ column: String, _ name: String, keep: Bool = true) throws {
        let (entity, attribute) = try formatColumn(entityName, column)
        guard let format = ColumnFormat(name: name), format.fits(attribute.type) else {
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(ErrorRendering.part(name, limit: 60))' is no format for \(attribute.type.rawValue) column \(column): "
                + Self.formatNames(for: attribute.type))
        }
        if case .isoText(let layout) = format, !layout.isWritable {
            throw StoreError.invalidSchema(entity: entity.name, reason: "'\(ErrorRendering.part(name, limit: 60))' has \(layout.fractionDigits) fraction digits; "
                + "Quarry writes dates to at most \(ColumnFormat.ISOLayout.maxFractionDigits) (e.g. \(layout.writable.example))")
        }
        // Kept first: a declaration that cannot be kept is not made.
        if keep, let foreign = store as? ForeignFileStore {
            try foreign.keep(ForeignSidecar.Format(entity: entity.name, column: column, format: format.name), context: self)
        }
        mapping.declaredFormats[entity.name, default: [:]][column] = format
        // Numbers in the column are read in the declared scale from now on.
        if attribute.type == .date {
            var storage = mapped(entity)
            storage.numericDates[column] = ForeignFileStore.numericDateScale(format)
            mapping.place(entity.name, storage)
        }
    }

    /// `format("Invoice", "InvoiceDate")`: the format Quarry writes the column in, declared
    /// or read from its values; nil for Quarry's own stores, whose encoding is fixed.
    /// Refused as a write would be when the values show no one format.
    public func columnFormat(_ entityName: String, _ column: String) throws -> String? {
        let entity = try entity(named: entityName)
        guard mapped(entity).layout == .foreignTable else { return nil }
        let (_, attribute) = try formatColumn(entityName, column)
        return try read { db in
            var formats = ColumnFormats()
            return try format(of: entity, attribute, in: db, cache: &formats)
        }.name
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

    private func formatColumn(_ entityName: String, _ column: String) throws -> (EntityDescription, AttributeDescription) {
        let entity = try entity(named: entityName)
        guard mapped(entity).layout == .foreignTable else {
            throw StoreError.invalidSchema(entity: entity.name, reason: mapped(entity).isView
                ? "\(entity.name) is a view: its rows cannot be changed, so it has no format to declare"
                : "\(entity.name) is Quarry's own: its formats are Quarry's")
        }
        guard let attribute = entity.attribute(named: column) else { throw entity.unknownKey(column) }
        return (entity, attribute)
    }

    /// `value` as it is written to `entity`'s column `key`: in a file Quarry did not create,
    /// in the format the column keeps; in Quarry's own, as Quarry keeps it.
    func storedValue(_ value: Value, _ entity: EntityDescription, _ key: String, in db: Database,
                     cache: inout ColumnFormats) throws -> DatabaseValue {
        guard !value.isNull, mapped(entity).layout == .foreignTable, let attribute = entity.attribute(named: key) else { return value.databaseValue }
        switch (attribute.type, value) {
        case (.date, _), (.bool, _): break
        // Text and bytes keep a format only when they are a UUID, in a column of UUIDs.
        case (.string, _), (.uuid, _), (.binary, _): guard uuidBytes(value) != nil else { return value.databaseValue }
        default: return value.databaseValue
        }
        let format = try format(of: entity, attribute, in: db, cache: &cache)
        guard let stored = format.databaseValue(value) else {
            throw StoreError.validation(message: "\(entity.name).\(key) keeps dates as \(format.name), which rounds \(value.displayString) "
                + "into the year 10000, past the dates any reader takes; nothing was written")
        }
        // A column of days alone keeps the day: the time is dropped, as psql drops it
        // writing a timestamp to a `date` column, but said, once per column.
        if case .isoText(let layout) = format, layout.separator == nil, case .date(let seconds) = value,
           seconds != (seconds / 86_400).rounded(.down) * 86_400 {
            writeNotes.add("\(entity.name).\(key)", "\(entity.name).\(key) keeps days alone (\(format.name)): the time of day of \(value.displayString) "
                + "and of any other date written to it is dropped")
        }
        return stored
    }

    /// The value a written one reads back as (the layout may keep fewer digits), so that
    /// the object's snapshot matches the row and the next save sees no conflict.
    func readBack(_ stored: DatabaseValue, _ entity: EntityDescription, _ key: String) -> Value {
        guard let attribute = entity.attribute(named: key) else { return Value(stored) }
        // Milliseconds and Julian days read back as the seconds SQL reads them as.
        if let scale = mapped(entity).numericDates[key] {
            switch stored.storage {
            case .int64(let i): return .date(scale.seconds(Double(i)))
            case .double(let d): return .date(scale.seconds(d))
            default: break
            }
        }
        return attribute.type.decode(Value(stored))
    }

    func format(of entity: EntityDescription, _ attribute: AttributeDescription, in db: Database,
                        cache: inout ColumnFormats) throws -> ColumnFormat {
        if let declared = mapping.declaredFormats[entity.name]?[attribute.name] { return declared }
        if let known = cache.byColumn[entity.name]?[attribute.name] { return known }
        let storage = mapped(entity)
        let column = quoteIdentifier(attribute.name)
        // The first and last rows by key: a sample that sees a format the table changed to.
        let ends = ["ASC", "DESC"].map { order in
            "SELECT \(column) FROM (SELECT \(column) FROM \(storage.table) ORDER BY \(storage.key) \(order) LIMIT \(Self.formatScan)) WHERE \(column) IS NOT NULL LIMIT \(Self.formatSample / 2)"
        }
        let sample = try DatabaseValue.fetchAll(db, sql: "SELECT * FROM (\(ends[0])) UNION ALL SELECT * FROM (\(ends[1]))").map(Value.init)
        switch ColumnFormat.detect(attribute.type, sample: sample) {
        case .format(.isoText(let layout)) where !layout.isWritable:
            // Refused before anything is written, as a column of no one format is.
            throw StoreError.validation(message: "\(entity.name).\(attribute.name) holds dates with \(layout.fractionDigits) fraction digits, more than Quarry writes "
                + "(\(ColumnFormat.ISOLayout.maxFractionDigits)); nothing was written: declare its format, e.g. "
                + "format(\"\(entity.name)\", \"\(attribute.name)\", \"\(layout.writable.example)\")")
        case .format(let format):
            cache.byColumn[entity.name, default: [:]][attribute.name] = format
            return format
        case .mixed(let found):
            throw StoreError.unknownFormat(entity: entity.name, column: attribute.name, found: found, example: Self.exampleFormat(attribute.type, found))
        case .unknown:
            throw StoreError.unknownFormat(entity: entity.name, column: attribute.name, found: [], example: Self.exampleFormat(attribute.type, []))
        }
    }

    private static func exampleFormat(_ type: AttributeType, _ found: [String]) -> String {
        if let first = found.first, let format = ColumnFormat(name: first), format.fits(type) { return first }
        switch type {
        case .date: return "iso-space"
        case .bool: return "0/1"
        default: return "uuid"
        }
    }
}
