/// A write the database refused for one of its constraints, as data on either engine:
/// which kind, on which table and columns, decided once where the engine's error is
/// turned into a `StoreError` (in each engine's target: SQLite's extended code and
/// message, PostgreSQL's SQLSTATE and diagnostic fields). A caller reads the parts, never the words;
/// `ErrorRendering` alone says it, in SQLite's words on both engines where the parts
/// allow (`UNIQUE constraint failed: Item.code`).
public struct ConstraintViolation: Equatable, Sendable {
    public enum Kind: String, Equatable, Sendable {
        /// A UNIQUE constraint or index, or a primary key, given a value it already holds.
        case unique
        /// A NOT NULL column left without a value.
        case notNull
        /// A foreign key naming a row that is not there (or a parent deleted under its children).
        case foreignKey
        /// A CHECK constraint the row does not meet.
        case check
    }

    /// The engine's own account: its name and its code as it writes it (SQLite's
    /// extended result code, the SQL standard's SQLSTATE a server gives); each engine's
    /// target makes its own (`.sqlite(_:)`, `.sqlState(_:)`).
    public struct EngineCode: Equatable, Sendable {
        /// The engine's name as a message says it.
        public var engine: String
        public var code: String
        /// Whether a message names the engine before its words: Quarry says a constraint in
        /// SQLite's words, so only another engine's own words are named.
        public var namedInMessages: Bool

        public init(engine: String, code: String, namedInMessages: Bool) {
            self.engine = engine
            self.code = code
            self.namedInMessages = namedInMessages
        }
    }

    public var kind: Kind
    /// The table whose row was refused (for a foreign key: the referencing table); nil
    /// where the engine does not say (SQLite's foreign keys, a unique expression index).
    public var table: String?
    /// The columns the constraint covers, in its order; empty where the engine does not say.
    public var columns: [String]
    /// The constraint's name, where the engine gives one (PostgreSQL; a SQLite CHECK's or
    /// expression index's, where its message names it).
    public var constraint: String?
    public var code: EngineCode
    /// The statement refused, when known.
    public var sql: String?
    /// What the engine said, unchanged: rendered where the parts cannot say it in
    /// SQLite's words (a foreign key, a check, an expression index).
    public var said: String
    /// For a foreign key whose broken row is known: the table its columns name, the values
    /// the row holds in them, and how many other rows of its table the save leaves broken. SQLite's own
    /// words at the commit ("FOREIGN KEY constraint failed") name none of them.
    public var referenced: String?
    public var values: [Value] = []
    public var otherRows = 0
    /// For a uniqueness whose refused row is known: the object ID of the object it was
    /// written for, and of the one holding its values already (with whether that one is new
    /// in the same save, so has no row outside it). `values` holds the values it gave.
    public var object: String?
    public var heldBy: String?
    public var heldByNewObject = false

    public init(
        _ kind: Kind, table: String?, columns: [String], constraint: String? = nil,
        code: EngineCode, sql: String?, said: String
    ) {
        self.kind = kind
        self.table = table
        self.columns = columns
        self.constraint = constraint
        self.code = code
        self.sql = sql
        self.said = said
    }

    /// The first (for a NOT NULL, the only) column.
    public var column: String? { columns.first }
}

extension ConstraintViolation {
    /// A foreign key's broken row, or a row a uniqueness refused, said from its parts:
    /// SQLite's words, then the columns, the values the row holds there and the table they
    /// name no row of, or the object holding them already
    /// (`FOREIGN KEY constraint failed: stop_times.stop_id 'Q' names no row of stops`).
    /// Nil unless the row is known.
    package var brokenRowWords: String? {
        guard let table, !columns.isEmpty, columns.count == values.count else { return nil }
        let written = { (items: [String]) in items.count == 1 ? items[0] : "(" + items.joined(separator: ", ") + ")" }
        let held = written(
            values.map { value -> String in
                switch value {
                case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
                default: return value.displayString
                }
            })
        switch kind {
        case .foreignKey:
            guard let referenced else { return nil }
            let more = otherRows > 0 ? " (and \(otherRows) more \(otherRows == 1 ? "row" : "rows") of \(table))" : ""
            return "FOREIGN KEY constraint failed: \(table).\(written(columns)) \(held) names no row of \(referenced)\(more)"
        case .unique:
            // `Item.code 'a' of Item/t2 is held by Item/1`: the value, whose it is, and where it is already.
            let of = object.map { " of \($0)" } ?? ""
            let holder = heldBy.map { heldByNewObject ? "\($0), also new in this save" : $0 } ?? "another row"
            let columns = columns.map { "\(table).\($0)" }.joined(separator: ", ")
            return "UNIQUE constraint failed: \(columns) \(held)\(of) is held by \(holder)"
        case .notNull, .check:
            return nil
        }
    }

    /// The violation said in SQLite's words from its parts, where they are enough: a
    /// uniqueness or NOT NULL with its table and columns. Nil otherwise.
    package var sqliteWords: String? {
        guard let table, !columns.isEmpty else { return nil }
        switch kind {
        case .unique: return "UNIQUE constraint failed: " + columns.map { "\(table).\($0)" }.joined(separator: ", ")
        case .notNull: return "NOT NULL constraint failed: \(table).\(columns[0])"
        case .foreignKey, .check: return nil
        }
    }
}
