import QuarryEngine
import QuarryModel

/// Where one entity's rows are kept, as the store's mapping lays them out: the relation
/// SQL reads them from, the column that identifies a row, and how values are encoded.
/// The model (`EntityDescription`) knows none of this; every SQL writer asks here, so a
/// layout is decided in one place per kind of file (see `StoreMapping`).
public struct EntityStorage: Equatable, Sendable {
    /// What a storage holds besides its layout, relation and key, in one box shared by its
    /// copies: the store's mapping hands out a copy each time a request, an object or a
    /// step of a save asks (a save of 20,000 new objects made a dozen copies an object,
    /// each two dozen retains and releases), and it changes only while a store is opened
    /// or its schema read. Quarry's own tables set none of it, and share one empty box.
    private struct Fields: Equatable, Sendable {
        var numberedRows: NumberedRows?
        var keyMayHoldOthers = false
        var keyIsPlace = false
        var paddedLengths: [String: Int] = [:]
        var numericDates: [String: NumericDateScale] = [:]
        var dialect: Dialect?
        var schema: String?
        var textCasts: Set<String> = []
        var numericCasts: Set<String> = []
        var intervalColumns: Set<String> = []
        var nanColumns: Set<String> = []
        var takesText: Set<String> = []
        var untyped: Set<String> = []
        var columnCollations: [String: String] = [:]
        var dayColumns: Set<String> = []
        var generated: Set<String> = []
        var keysToGive: [String] = []
        var primaryKey: [String] = []
        var clockDefaults: [String: String] = [:]
        var engineDefaults: Set<String> = []
        var setDefaults: [String: String] = [:]
        var unevaluatedDefaults: [String: String] = [:]
        var pairLink: String?
        var pairSourceColumn: String?
        var readOnlyLinks: [String: ReadOnlyLink] = [:]
        var orderedLinks: [String: OrderedLink] = [:]
        var collations: [String: String] = [:]
        var referencingKeys: [ReferencingKey] = []
        var rowsWithoutColumns: String?
    }
    private static let none = SharedBox(Fields())
    private var box = Self.none
    /// The fields to change: taken out of the box and boxed again (copied first when
    /// another storage shares them).
    private var fields: Fields {
        get { box.value }
        _modify {
            var value = SharedBox.take(&box, leaving: Self.none)
            defer { box = SharedBox(value) }
            yield &value
        }
    }

    public static func == (a: EntityStorage, b: EntityStorage) -> Bool {
        a.layout == b.layout && a.relation == b.relation && a.keyColumn == b.keyColumn && (a.box === b.box || a.box.value == b.box.value)
    }

    public enum Layout: Equatable, Sendable {
        /// A table of Quarry's own file, or its hierarchy's view over the root's table.
        case quarry
        /// A table Quarry reads as the database keeps it: another program's, or any table
        /// of a database whose columns hold their types (Quarry's own there too: a server's
        /// columns are laid out as any other's, `SQLReads.columnsHoldTheirTypes`).
        case foreignTable
        /// A view of another program's: rows to read, never to change.
        case foreignView
        /// An entity of a Core Data store, numbered `Z_ENT` = `number`: a temporary view
        /// over its root's Z-table (see `CoreDataStore`).
        case coreData(number: Int64)
    }

    public var layout: Layout
    /// The table or view holding the rows, unquoted.
    public var relation: String
    /// The column identifying a row, unquoted.
    public var keyColumn: String
    /// Rows known by a number made from their key rather than by an integer key of their
    /// own (a PostgreSQL table keyed by text, uuid or several columns): no index finds a
    /// row by its number, so the rows of given numbers are read through the session's
    /// table of numbers and keys (`SQLDialect.rowsByKey`).
    public var numberedRows: NumberedRows? {
        get { box.value.numberedRows }
        _modify { yield &fields.numberedRows }
    }
    /// How rows known by numbers are read (`KeyedRows`, in the engine's terms).
    public typealias NumberedRows = QuarryEngine.NumberedRows
    /// How a date column keeps its dates as numbers (`numericDates`).
    public typealias NumericDateScale = QuarryEngine.NumericDateScale
    /// The key column may hold values that are not integers (a view's id column, a WITHOUT
    /// ROWID table's INTEGER PRIMARY KEY, which is no rowid alias): such rows are no objects,
    /// and every request leaves them out, so counts and fetches agree.
    public var keyMayHoldOthers: Bool {
        get { box.value.keyMayHoldOthers }
        _modify { yield &fields.keyMayHoldOthers }
    }
    /// The key numbers the rows in the order the relation gives them (a view keyed by its
    /// rows' places): a request that sorts by nothing else reads them as they come, since
    /// sorting by the key would read every row (all of a view that never ends) first.
    public var keyIsPlace: Bool {
        get { box.value.keyIsPlace }
        _modify { yield &fields.keyIsPlace }
    }
    /// `char(n)` columns by attribute name, with their `n`: the server keeps their values
    /// padded with spaces, as its COPY and psql write them, while objects read them as
    /// they compare (`textCasts`, the padding dropped); an object's value is exported
    /// padded again (`FetchResults+Export`), so a file says one thing either way.
    public var paddedLengths: [String: Int] {
        get { box.value.paddedLengths }
        _modify { yield &fields.paddedLengths }
    }
    /// Date columns of a file Quarry did not create that keep their dates as numbers
    /// other than Unix seconds (milliseconds, Julian days, a count since 2001 or 1601), or
    /// that keep a number meaning "never", by attribute name: read, and compared, as Unix
    /// seconds (`NumericDateScale`).
    public var numericDates: [String: NumericDateScale] {
        get { box.value.numericDates }
        _modify { yield &fields.numericDates }
    }
    /// The dialect of the engine the rows are in, which spells what a column's read
    /// converts (`SQLReads.converted`) and says whether its columns hold their types; set
    /// by the engine's layout that places the rows. None for Quarry's own tables of a
    /// SQLite file, whose columns need no conversion.
    public var dialect: (any SQLReads)? {
        get { box.value.dialect?.reads }
        set { fields.dialect = newValue.map(Dialect.init) }
    }
    /// A dialect, equal to another of its type (what a storage is compared by).
    private struct Dialect: Equatable, Sendable {
        let reads: any SQLReads
        static func == (a: Dialect, b: Dialect) -> Bool { type(of: a.reads) == type(of: b.reads) }
    }
    /// Whether the columns hold only their declared types (the engine's answer).
    public var columnsHoldTheirTypes: Bool { dialect?.columnsHoldTheirTypes ?? false }
    /// Whether stored values may be of another type than the column's (a SQLite file's
    /// tables and views): compared and read through conversions.
    public var keepsAnyType: Bool { (layout == .foreignTable || layout == .foreignView) && !columnsHoldTheirTypes }
    /// `column` read through `conversion`, as the engine spells it (for this type's extensions, such as `EntityStorage+UnreadableDates`).
    func converted(_ column: String, _ conversion: ColumnConversion) -> String {
        dialect?.converted(column, conversion) ?? column
    }
    /// The schema the relation is in, where SQL must name it (a PostgreSQL store's: a
    /// table named as a system catalog, `pg_class`, would be the catalog's otherwise).
    public var schema: String? {
        get { box.value.schema }
        _modify { yield &fields.schema }
    }
    /// A server table's string attributes whose columns are of another type (`date`,
    /// `uuid`, `json`, an enum): compared, sorted and tested as their text; a uuid
    /// attribute's (Quarry's own tables) as upper-case text, as Quarry writes a UUID.
    public var textCasts: Set<String> {
        get { box.value.textCasts }
        _modify { yield &fields.textCasts }
    }
    /// A server table's decimal attributes whose columns are of another type (`money`,
    /// whose text is the locale's `$1,200.50`): read, compared, summed and sorted as
    /// `numeric`, so as the number they hold.
    public var numericCasts: Set<String> {
        get { box.value.numericCasts }
        _modify { yield &fields.numericCasts }
    }
    /// A server table's double attributes whose columns are `interval`s: read, compared,
    /// summed and sorted as their seconds, a month 30 days and a day 24 hours, as the
    /// server compares intervals (`ColumnConversion.intervalSeconds`).
    public var intervalColumns: Set<String> {
        get { box.value.intervalColumns }
        _modify { yield &fields.intervalColumns }
    }

    /// A server table's number attributes whose columns may hold a NaN another program
    /// stored: Quarry has none (it writes one as nil, as SQLite stores it) and reads one as
    /// nil, so SQL does too wherever it reads the column (`withoutNaN`, standard `NULLIF`).
    public var nanColumns: Set<String> {
        get { box.value.nanColumns }
        _modify { yield &fields.nanColumns }
    }
    func withoutNaN(_ column: String, _ name: String) -> String { nanColumns.contains(name) ? "NULLIF(\(column), 'NaN')" : column }

    /// A SQLite file's number attributes whose columns have INTEGER or REAL affinity:
    /// SQLite keeps any value there (Anki's `notes.sfld integer` holds text), so a
    /// predicate compares them with text and matches them as strings, as SQLite does
    /// (`NumericAffinity`). Quarry's own and a server's columns hold their type only, and
    /// there such a comparison stays a mistake, refused.
    public var takesText: Set<String> {
        get { box.value.takesText }
        _modify { yield &fields.takesText }
    }
    /// A SQLite file's string attributes whose columns declare no type (a key-value table's
    /// `value`): SQLite keeps any value there and compares it as stored, with no affinity
    /// to convert it, so a predicate compares them with numbers too, as SQLite does.
    public var untyped: Set<String> {
        get { box.value.untyped }
        _modify { yield &fields.untyped }
    }
    /// A SQLite file's attributes whose columns compare with a collation of SQLite's own
    /// other than BINARY (`NOCASE`, `RTRIM`), by attribute, upper-cased: SQL compares them so
    /// with no word from Quarry, and the in-memory evaluator must too (`p:matches`,
    /// observers).
    public var columnCollations: [String: String] {
        get { box.value.columnCollations }
        _modify { yield &fields.columnCollations }
    }
    /// A server table's `date` columns (date attributes that keep the day alone): a time
    /// written to one is dropped by the server, and said (`WriteNotes`).
    public var dayColumns: Set<String> {
        get { box.value.dayColumns }
        _modify { yield &fields.dayColumns }
    }
    /// A server table's columns the server computes (`GENERATED ALWAYS`): never written.
    public var generated: Set<String> {
        get { box.value.generated }
        _modify { yield &fields.generated }
    }
    /// Columns of another program's primary key that nothing fills (no rowid alias, no
    /// default, serial or identity): a new object is refused at once without them.
    public var keysToGive: [String] {
        get { box.value.keysToGive }
        _modify { yield &fields.keysToGive }
    }
    /// Another program's table's primary key (or the unique key standing for it), its
    /// columns in key order: what `Entity:get(value)` looks a row up by.
    public var primaryKey: [String] {
        get { box.value.primaryKey }
        _modify { yield &fields.primaryKey }
    }
    /// Columns whose default is a clock SQLite reads at each insert (`CURRENT_TIMESTAMP`),
    /// by attribute: a new object reads it when made (`ForeignColumnDefault`).
    public var clockDefaults: [String: String] {
        get { box.value.clockDefaults }
        _modify { yield &fields.clockDefaults }
    }
    /// Columns whose default the engine computes and Quarry never evaluates (an expression:
    /// `DEFAULT (datetime('now'))`): a new object that was not given a value for one
    /// leaves it out of its INSERT, as sqlite3 and psql do, and reads back what the engine
    /// stored (issue 60, item 7).
    public var engineDefaults: Set<String> {
        get { box.value.engineDefaults }
        _modify { yield &fields.engineDefaults }
    }
    /// The declared default (its SQL text, as the engine's catalog gives it) of each column
    /// a foreign key `ON DELETE SET DEFAULT` names: what a child's column takes when its
    /// parent goes (`ForeignKeyDefaults`), read from the schema's description on every
    /// engine rather than from one engine's catalog.
    public var setDefaults: [String: String] {
        get { box.value.setDefaults }
        _modify { yield &fields.setDefaults }
    }
    /// Such a column's declared default the engine does not evaluate for Quarry (SQLite:
    /// an expression in parentheses, which may call any function; a file's text never
    /// makes Quarry call one): a delete that would give it is refused, naming it.
    public var unevaluatedDefaults: [String: String] {
        get { box.value.unevaluatedDefaults }
        _modify { yield &fields.unevaluatedDefaults }
    }
    /// A join table of a file Quarry did not create: the link view of the many-to-many
    /// pair it gives (`ForeignFileStore.mapJoinTables`), through which its rows are linked.
    public var pairLink: String? {
        get { box.value.pairLink }
        _modify { yield &fields.pairLink }
    }
    /// The join table's column the link view reads as its `source`.
    public var pairSourceColumn: String? {
        get { box.value.pairSourceColumn }
        _modify { yield &fields.pairSourceColumn }
    }
    /// The link tables of this entity's many-to-many pairs that are read only, by link:
    /// their join table has columns a new link's row needs and nothing fills (Sakila's
    /// `last_update TIMESTAMP NOT NULL`, no default), so links are not added or removed
    /// through the pair (a SQLite file's join table is an entity whose objects write them).
    public var readOnlyLinks: [String: ReadOnlyLink] {
        get { box.value.readOnlyLinks }
        _modify { yield &fields.readOnlyLinks }
    }

    /// This entity's to-many relationships, by name, that a join table orders by a
    /// position its key holds (`ForeignSchema.Position`): the owner's side of the pair.
    public var orderedLinks: [String: OrderedLink] {
        get { box.value.orderedLinks }
        _modify { yield &fields.orderedLinks }
    }

    /// A pair's link view whose rows carry the join table's position (`position`), and
    /// which of its columns holds the owner's key and which the member's (`source`, `target`).
    public struct OrderedLink: Equatable, Sendable {
        public let link: String
        public let join: String
        public let position: String
        public let ownerColumn: String
        public let memberColumn: String

        public init(link: String, join: String, position: String, ownerColumn: String, memberColumn: String) {
            self.link = link
            self.join = join
            self.position = position
            self.ownerColumn = ownerColumn
            self.memberColumn = memberColumn
        }
    }

    /// A join table whose links are read only, and the columns it requires.
    public struct ReadOnlyLink: Equatable, Sendable {
        public let join: String
        public let required: [String]

        public init(join: String, required: [String]) {
            self.join = join
            self.required = required
        }
    }
    /// A file's key columns other foreign keys name whose collation is not BINARY
    /// (`code TEXT PRIMARY KEY COLLATE NOCASE`), by column: SQLite matches a child's value
    /// to its parent's with the parent column's collation (`'ABC'` names `'abc'`), and so
    /// do the members of the to-many, in SQL and in the link view.
    public var collations: [String: String] {
        get { box.value.collations }
        _modify { yield &fields.collations }
    }

    /// Another program's foreign keys naming this table, in the order its engine carries
    /// out their ON DELETE actions when one of its rows goes (`ForeignSchema+DeleteOrder`):
    /// a RESTRICT key is checked at its turn, before the cascades after it have run.
    public var referencingKeys: [ReferencingKey] {
        get { box.value.referencingKeys }
        _modify { yield &fields.referencingKeys }
    }
    /// Where the relation's rows are without its columns, when it is a view over one
    /// table (`main."ZASSET" WHERE "Z_ENT" IN (3)`): a count of every row reads it, and
    /// SQLite then neither makes nor prepares the view (a Core Data entity's 150 columns).
    public var rowsWithoutColumns: String? {
        get { box.value.rowsWithoutColumns }
        _modify { yield &fields.rowsWithoutColumns }
    }

    /// One foreign key of another program's file naming this table: `child.column`.
    public struct ReferencingKey: Equatable, Sendable {
        public enum Check: Equatable, Sendable {
            /// ON DELETE RESTRICT: checked as the row goes, at the key's turn.
            case restrict
            /// NO ACTION (or an action that leaves no child behind): at the statement's end.
            case statement
            /// NO ACTION, DEFERRABLE INITIALLY DEFERRED: at the commit, so at the save.
            case commit
        }
        public let child: String
        public let column: String
        public let check: Check

        public init(child: String, column: String, check: Check) {
            self.child = child
            self.column = column
            self.check = check
        }
    }

    /// The key column of Quarry's own tables (and of Core Data's views, which show `Z_PK` as it).
    public static let quarryKeyColumn = "_pk"
    /// The column telling a hierarchy's rows apart: the row's entity (Quarry's own stores
    /// keep its name; Core Data's views show `Z_ENT` as it).
    public static let entityColumn = "_entity"

    /// `dialect`: the engine's, which every layout but Quarry's own file gives.
    public init(layout: Layout, relation: String, keyColumn: String, keyMayHoldOthers: Bool = false, dialect: (any SQLReads)?) {
        self.layout = layout
        self.relation = relation
        self.keyColumn = keyColumn
        if keyMayHoldOthers { self.keyMayHoldOthers = true }
        if let dialect { self.dialect = dialect }
    }

    /// Quarry's own table for entity `name`.
    public static func quarry(_ name: String) -> EntityStorage {
        EntityStorage(layout: .quarry, relation: name, keyColumn: quarryKeyColumn, dialect: nil)
    }

    /// Rows to read only: a view of a foreign file.
    public var isView: Bool { layout == .foreignView }
    /// The relation as a person names it in `sql()` (what `.tables` and completion show):
    /// a table without a rowid is its own name, not the TEMP view Quarry reads it through
    /// (`quarry_rows country`), as sqlite3's `.tables` names it.
    public var nameInSQL: String {
        guard let owner = numberedRows?.owner, !owner.isEmpty else { return relation }
        return owner
    }
    /// Not laid out by Quarry (a foreign file's table or view, or a Core Data store's
    /// entity): Quarry adds no columns or tables for it, and relate() keeps no record there.
    public var isForeign: Bool { layout != .quarry }
    /// The entity's number in a Core Data store (`Z_ENT`).
    public var storeNumber: Int64? {
        if case .coreData(let number) = layout { return number }
        return nil
    }
    /// Every row of the relation is an object only when its key is an integer (see
    /// `keyMayHoldOthers`); a view's rows need the same check.
    public var needsIntegerKeyCheck: Bool { isView || keyMayHoldOthers }

    // MARK: SQL

    /// The relation, quoted for SQL.
    public var table: String { (schema.map { quoteIdentifier($0) + "." } ?? "") + quoteIdentifier(relation) }
    /// The key column, quoted for SQL.
    public var key: String { quoteIdentifier(keyColumn) }
    /// `SELECT columns` of the rows whose keys are `count` placeholders: rows a key's
    /// index finds (`SQLDialect.rowsByKey` where no numbers' table is needed).
    public func rowsByKeyIndex(_ columns: String, count: Int) -> String { keyedRows.byKeyIndex(columns, count: count) }
    /// Its rows as the dialect reads them by key: its table, key column and numbers.
    public var keyedRows: KeyedRows { KeyedRows(table: table, key: key, numbered: numberedRows) }
    /// The column of attribute (or to-one relationship) `name`, quoted for SQL.
    public func column(_ name: String) -> String { quoteIdentifier(name) }

    /// The key column, every attribute column, then each to-one relationship's key
    /// column, as `ObjectContext.object(for:row:)` reads them.
    public func selection(of entity: EntityDescription, qualifier: String? = nil) -> String {
        return ([keyColumn] + entity.attributeNames + entity.toOneRelationships.map(\.keyColumn)).map {
            selected($0, of: entity, qualifier: qualifier)
        }
        .joined(separator: ", ")
    }

    /// Column `name` as `selection(of:)` reads it: bare, or converted where the stored
    /// value alone would read as another value (a server type read through a cast, a
    /// date kept as a count of other units). Every read of an attribute's column for an
    /// object goes through it, so no batch reads a column another way.
    public func selected(_ name: String, of entity: EntityDescription, qualifier: String? = nil) -> String {
        let bare = (qualifier.map { quoteIdentifier($0) + "." } ?? "") + quoteIdentifier(name)
        let column = withoutNaN(bare, name)
        // A server's uuid column of a uuid attribute reads as Quarry writes a UUID.
        if textCasts.contains(name), entity.attribute(named: name)?.type == .uuid {
            return "\(converted(column, .uuidText)) AS \(quoteIdentifier(name))"
        }
        // Other server types read as text read as they compare (`comparable`): a
        // `char(n)`'s padding goes, as its cast to text drops it.
        if textCasts.contains(name), entity.attribute(named: name)?.type == .string {
            return "\(converted(column, .text)) AS \(quoteIdentifier(name))"
        }
        if numericCasts.contains(name) { return "\(converted(column, .number)) AS \(quoteIdentifier(name))" }
        if intervalColumns.contains(name) { return "\(converted(column, .intervalSeconds)) AS \(quoteIdentifier(name))" }
        // Dates kept as milliseconds or Julian days are read as Unix seconds, or as a
        // server's dates where it has a type of its own for them.
        guard let scale = numericDates[name] else { return column == bare ? column : "\(column) AS \(quoteIdentifier(name))" }
        if let typed = scale.typed { return "\(typed.filled(column)) AS \(quoteIdentifier(name))" }
        return "\(converted(column, .numbersAsDate(scale))) AS \(quoteIdentifier(name))"
    }

    /// An attribute's column as SQL compares it. A date column of a file Quarry did not
    /// create may hold ISO 8601 text as well as numbers; its text is read as Unix seconds
    /// (to the millisecond), as Quarry reads it in memory, so both agree. Quarry's own date
    /// columns hold numbers only and stay bare, so their indexes serve.
    /// A boolean column of such a file may keep its booleans as text ('Y'/'N',
    /// 'true'/'false'), or true as any number but 0: the texts Quarry reads as booleans,
    /// and numbers, compare as 1 and 0, so `b == YES` matches the rows it matches in memory.
    public func comparable(_ qualifier: String, _ attribute: AttributeDescription) -> String {
        let column = withoutNaN("\(qualifier).\(self.column(attribute.name))", attribute.name)
        if textCasts.contains(attribute.name) { return converted(column, attribute.type == .uuid ? .uuidText : .text) }
        if numericCasts.contains(attribute.name) { return converted(column, .number) }
        if intervalColumns.contains(attribute.name) { return converted(column, .intervalSeconds) }
        // A server's day compares as its midnight (UTC, the session's zone) with an
        // instant: a parameter beside a bare `date` would be read as a day, its time dropped.
        if dayColumns.contains(attribute.name) { return converted(column, .dayInstant) }
        if attribute.type == .bool, keepsAnyType { return converted(column, .looseBoolean) }
        if attribute.type == .date, let typed = numericDates[attribute.name]?.typed { return typed.filled(column) }
        guard isForeign, !columnsHoldTheirTypes, attribute.type == .date else { return column }
        return converted(column, .looseDate(numericDates[attribute.name]))
    }

    /// An attribute's column as a dictionary row, a group or a section reads it: as
    /// `comparable` where the stored value alone would be read wrongly (booleans kept as
    /// text in a foreign file, dates kept as milliseconds or Julian days), so `'TRUE'` and
    /// `'1'` fall in one group and a date in milliseconds is no date of year 55000; else
    /// as stored.
    public func readable(_ qualifier: String, _ attribute: AttributeDescription) -> String {
        let misread =
            attribute.type == .bool && keepsAnyType
            || attribute.type == .date && numericDates[attribute.name] != nil || textCasts.contains(attribute.name)
            || numericCasts.contains(attribute.name) || intervalColumns.contains(attribute.name) || nanColumns.contains(attribute.name)
        return misread ? comparable(qualifier, attribute) : "\(qualifier).\(column(attribute.name))"
    }

    /// Whether the server's own text for attribute `name`'s column is another kind of
    /// value than the attribute reads (`money`'s `$1,200.50` for a decimal, an interval's
    /// `1 mon` for a double): what reads its rows in bulk (an export through COPY) reads
    /// it as `readable`. Text read through a cast (`char(n)`, uuid) is text either way.
    /// So is a date kept as a count of other units (milliseconds, Chrome's microseconds
    /// since 1601): its number is no Unix seconds.
    public func isReadThroughCast(_ name: String) -> Bool {
        numericCasts.contains(name) || intervalColumns.contains(name) || numericDates[name] != nil
    }

    /// The value of the entity column that marks entity `name`'s own rows.
    public func entityTag(of name: String) -> Value {
        storeNumber.map(Value.integer) ?? .text(name)
    }
}
