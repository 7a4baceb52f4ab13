import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// The formats of one write (a save, an updateall), decided once per column for it.
struct ColumnFormats {
    var byColumn: [String: [String: ColumnFormat]] = [:]

    /// Rows read from each end of a table (by its key) to learn a column's format: a
    /// bounded read, however big the table; of these, up to `formatSample` non-null values.
    static let formatScan = 5000
    static let formatSample = 300

    /// `value` as it is written to `entity`'s column `key`: in a file Quarry did not create,
    /// in the format the column keeps; in Quarry's own, as Quarry keeps it. `storage` is
    /// the entity's where the caller has it: each value of a save's new rows comes here,
    /// and looking the storage up again for each was most of this function's work (issue 84).
    mutating func stored(
        _ value: Value, _ entity: EntityDescription, _ key: String, in db: Database,
        session: StoreSession, storage known: EntityStorage? = nil
    ) throws -> DatabaseValue {
        let storage = known ?? session.mapped(entity)
        if WrittenForm(key, of: entity, storage).keepsAsGiven(value) { return value.databaseValue }
        // A time column's nil is the number it keeps for "never" (Chrome's 0).
        if value.isNull {
            guard let never = storage.numericDates[key]?.never else { return value.databaseValue }
            return Value.integer(never).databaseValue
        }
        guard let attribute = entity.attribute(named: key) else { return value.databaseValue }
        switch attribute.type {
        case .date, .bool: break
        // Text and bytes keep a format only when they are a UUID, in a column of UUIDs.
        case .string, .uuid, .binary: guard uuidBytes(value) != nil else { return value.databaseValue }
        default: return value.databaseValue
        }
        let format = try format(of: entity, attribute, in: db, session: session)
        // Seconds since 2001 in a REAL column (Core Data's timestamps) keep their fraction.
        if format == .epochCount(.cocoa), session.mapping.numberColumnsAsDates[entity.name]?[key]?.type == .double,
            case .date(let seconds) = value
        {
            return Value.real(seconds - Double(ColumnFormat.EpochCount.cocoa.epoch)).databaseValue
        }
        guard let stored = format.storedValue(value)?.databaseValue else {
            throw StoreError.validation(
                message: "\(entity.name).\(key) keeps dates as \(format.name), which "
                    + (format.epochCount.map { $0.scale.countRefusal(value) }
                        ?? "rounds \(value.displayString) into the year 10000, past the dates any reader takes")
                    + "; nothing was written")
        }
        // A column of days alone keeps the day: the time is dropped, as psql drops it
        // writing a timestamp to a `date` column, but said, once per column.
        if case .isoText(let layout) = format, layout.separator == nil, case .date(let seconds) = value,
            seconds != (seconds / 86_400).rounded(.down) * 86_400
        {
            session.writeNotes.add(
                "\(entity.name).\(key)",
                "\(entity.name).\(key) keeps days alone (\(format.name)): the time of day of \(value.displayString) "
                    + "and of any other date written to it is dropped")
        }
        // A layout that keeps fewer digits of time rounds to them, as PostgreSQL rounds a
        // timestamp(0): said once per column, as the day's note is.
        if case .isoText(let layout) = format, case .date(let seconds) = value, let kept = layout.coarser(than: seconds) {
            session.writeNotes.add(
                "\(entity.name).\(key)",
                "\(entity.name).\(key) keeps \(kept) (\(format.name)): \(value.displayString) "
                    + "and any other date written to it are rounded to them")
        }
        return stored
    }

    /// The value a written one reads back as (the layout may keep fewer digits), so that
    /// the object's snapshot matches the row and the next save sees no conflict.
    static func readBack(_ stored: DatabaseValue, _ entity: EntityDescription, _ key: String, session: StoreSession) -> Value {
        guard let attribute = entity.attribute(named: key) else { return Value(stored) }
        // Milliseconds, Julian days and other counts read back as the seconds SQL reads
        // them as; "never" as nil.
        if let scale = session.mapped(entity).numericDates[key] {
            switch stored.storage {
            case .int64(let i): return scale.seconds(i).map(Value.date) ?? .null
            case .double(let d): return scale.seconds(d).map(Value.date) ?? .null
            default: break
            }
        }
        return attribute.type.decode(Value(stored))
    }

    mutating func format(
        of entity: EntityDescription, _ attribute: AttributeDescription, in db: Database,
        session: StoreSession
    ) throws -> ColumnFormat {
        if let declared = session.mapping.declaredFormats[entity.name]?[attribute.name] { return declared }
        if let known = byColumn[entity.name]?[attribute.name] { return known }
        let storage = session.mapped(entity)
        let column = quoteIdentifier(attribute.name)
        // The first and last rows by key: a sample that sees a format the table changed to.
        let ends = ["ASC", "DESC"].map { order in
            "SELECT \(column) FROM (SELECT \(column) FROM \(storage.table) ORDER BY \(storage.key) \(order) LIMIT \(Self.formatScan)) WHERE \(column) IS NOT NULL LIMIT \(Self.formatSample / 2)"
        }
        var sample = try DatabaseValue.fetchAll(db, sql: "SELECT * FROM (\(ends[0])) UNION ALL SELECT * FROM (\(ends[1]))").map(Value.init)
        // An empty column still shows its format in a literal default (`DEFAULT
        // '2000-01-01 00:00:00+00:00'`), as the file's own writes would keep it.
        // The table's, not the view a table without a rowid is read through.
        let table = storage.numberedRows == nil ? storage.relation : entity.name
        if sample.isEmpty, let literal = try Self.literalDefault(of: attribute.name, in: table, db) { sample = [literal] }
        switch ColumnFormat.detect(attribute.type, sample: sample) {
        case .format(.isoText(let layout)) where !layout.isWritable:
            // Refused before anything is written, as a column of no one format is.
            throw StoreError.validation(
                message: "\(entity.name).\(attribute.name) holds dates with \(layout.fractionDigits) fraction digits, more than Quarry writes "
                    + "(\(ColumnFormat.ISOLayout.maxFractionDigits)); nothing was written: declare its format, e.g. "
                    + "format(\"\(entity.name)\", \"\(attribute.name)\", \"\(layout.writable.example)\")")
        case .format(let format):
            byColumn[entity.name, default: [:]][attribute.name] = format
            return format
        case .mixed(let found):
            throw StoreError.unknownFormat(
                entity: entity.name, column: attribute.name, found: found, example: Self.exampleFormat(attribute.type, found))
        case .unknown:
            throw StoreError.unknownFormat(entity: entity.name, column: attribute.name, found: [], example: Self.exampleFormat(attribute.type, []))
        }
    }

    /// A column's default when it is a literal (a quoted text or a number), as the schema
    /// writes it; nil for none or an expression.
    private static func literalDefault(of column: String, in table: String, _ db: Database) throws -> Value? {
        let sql = "SELECT dflt_value FROM pragma_table_info(?) WHERE name = ? COLLATE NOCASE"
        guard let text = try String.fetchOne(db, sql: sql, arguments: [table, column]) else { return nil }
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            return .text(String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'"))
        }
        if let integer = Int64(text) { return .integer(integer) }
        if let real = Double(text), real.isFinite { return .real(real) }
        return nil
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

/// How a column keeps the values a write gives it, before any value is seen: as given
/// (Quarry's own tables; a number), as given unless a text that could be a UUID (text and
/// bytes, kept as the column keeps UUIDs: text of another length is none, known without
/// copying its bytes), or as the column's format says (dates, booleans, a time column's
/// counts and its nil). `ColumnFormats.stored` starts from it; a save's new rows work it
/// out once a column, not once a value (`SQLiteSaveStatements+NewRows`).
enum WrittenForm {
    case asGiven, asGivenUnlessUUIDText, formatted

    init(_ key: String, of entity: EntityDescription, _ storage: EntityStorage) {
        guard storage.layout == .foreignTable else {
            self = .asGiven
            return
        }
        if storage.numericDates[key] != nil {
            self = .formatted
            return
        }
        switch entity.attribute(named: key)?.type {
        case .date?, .bool?: self = .formatted
        case .string?, .uuid?, .binary?: self = .asGivenUnlessUUIDText
        default: self = .asGiven
        }
    }

    /// Whether `value` is written as it is, without asking the column's format.
    func keepsAsGiven(_ value: Value) -> Bool {
        switch (self, value) {
        case (.asGiven, _), (.asGivenUnlessUUIDText, .null): return true
        case (.asGivenUnlessUUIDText, .text(let text)): return text.utf8.count != 32 && text.utf8.count != 36
        default: return false
        }
    }
}
