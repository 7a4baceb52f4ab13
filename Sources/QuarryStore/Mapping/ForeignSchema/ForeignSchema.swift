import QuarryModel

/// Another program's schema as its engine's catalog describes it, in terms no engine
/// owns: a SQLite file's (`PRAGMA table_info`, `foreign_key_list`, `sqlite_master`,
/// read by `ForeignSchemaReader`) and a PostgreSQL schema's (`pg_catalog`, read by
/// `PostgresStore+Catalog`) are read into this value, and one piece of code
/// (`ForeignSchema+ForeignKeys`, `ForeignSchema+JoinTables`) decides from it which
/// foreign keys are relationships and which tables join two entities, and in which order
/// their ON DELETE actions run (`ForeignSchema+DeleteOrder`), and each table's and
/// view's entity (`ForeignSchema+Entities`), so both engines answer alike. Each engine
/// only reads its catalog, says what a table's rows are known by, and answers
/// `ForeignSchemaEngine` (its types, defaults and view SQL).
package struct ForeignSchema: Sendable {
    /// One column, as declared.
    package struct Column: Sendable {
        package let name: String
        /// The type as the catalog names it (SQLite: as declared, `VARCHAR(40)`;
        /// PostgreSQL: `pg_type.typname`, a domain's base type).
        package let declaredType: String
        let notNull: Bool
        /// A default, serial or identity fills it when an insert leaves it out.
        package let hasDefault: Bool
        /// The default's SQL text, where the engine gives it (SQLite's `dflt_value`,
        /// PostgreSQL's `pg_get_expr` of `pg_attrdef`).
        package var defaultText: String? = nil
        /// Computed by the engine (`GENERATED ALWAYS`): never written.
        var generated = false
        /// The collation the column compares with, where not the engine's plain one
        /// (SQLite's when not BINARY): a foreign key matches a parent's value with it.
        package var collation: String? = nil
        /// The enum type it is of, with its labels in order (PostgreSQL's `CREATE TYPE
        /// ... AS ENUM`): its attribute orders by them.
        package var enumeration: EnumLabels? = nil
        /// A `char(n)`'s length (PostgreSQL's `bpchar`), to which the server pads its values
        /// with spaces.
        package var padding: Int? = nil

        package init(
            name: String, declaredType: String, notNull: Bool, hasDefault: Bool, defaultText: String? = nil, generated: Bool = false,
            collation: String? = nil, enumeration: EnumLabels? = nil
        ) {
            self.name = name
            self.declaredType = declaredType
            self.notNull = notNull
            self.hasDefault = hasDefault
            self.defaultText = defaultText
            self.generated = generated
            self.collation = collation
            self.enumeration = enumeration
        }
    }

    /// One foreign key, with every column it has, in declared order.
    package struct ForeignKey: Sendable {
        package let columns: [String]
        package let parent: String
        /// The parent's columns each of `columns` names, in the same order; empty when the
        /// key names the parent's primary key without saying its columns (SQLite's
        /// `REFERENCES parent`).
        package let parentColumns: [String]
        /// The ON DELETE action in SQL's words (`CASCADE`, `SET NULL`, `SET DEFAULT`,
        /// `RESTRICT`, `NO ACTION`).
        package let onDelete: String
        /// Checked at commit (DEFERRABLE INITIALLY DEFERRED).
        package var deferred = false
        /// The key's place among the schema's keys in the order its engine keeps them for
        /// their ON DELETE actions (SQLite: as declared, tables in `sqlite_master` order;
        /// PostgreSQL: as its action trigger's name sorts, about as made), from which the
        /// engine's rule orders the actions (`ForeignSchema+DeleteOrder`). Nil when the
        /// engine gives the key no action to order.
        package var made: Int? = nil

        package init(columns: [String], parent: String, parentColumns: [String], onDelete: String, deferred: Bool = false, made: Int? = nil) {
            self.columns = columns
            self.parent = parent
            self.parentColumns = parentColumns
            self.onDelete = onDelete
            self.deferred = deferred
            self.made = made
        }
    }

    /// A table or a view.
    package struct Relation: Sendable {
        package let name: String
        package let isView: Bool
        package var columns: [Column]
        /// The primary key's columns in key order; empty when there is none.
        package let primaryKey: [String]
        /// Its foreign keys, in the order the engine lists them.
        package var foreignKeys: [ForeignKey]
        /// The sets of columns it holds unique (unique indexes and constraints), where the
        /// engine lets a foreign key name columns that are not (SQLite takes the
        /// declaration and refuses writes with "foreign key mismatch"); nil where the
        /// engine refuses such a key when it is made (PostgreSQL).
        package var uniqueKeys: [[String]]? = nil

        package func column(_ name: String) -> Column? { columns.first { $0.name == name } }

        package init(name: String, isView: Bool, columns: [Column], primaryKey: [String], foreignKeys: [ForeignKey], uniqueKeys: [[String]]? = nil) {
            self.name = name
            self.isView = isView
            self.columns = columns
            self.primaryKey = primaryKey
            self.foreignKeys = foreignKeys
            self.uniqueKeys = uniqueKeys
        }
    }

    /// Tables and views by name.
    package var relations: [String: Relation] = [:]

    /// The parent's columns a foreign key names, in its order: those it declares, else
    /// the parent's primary key (nil when that has another number of columns).
    /// Whether `key` names columns its parent has and holds unique, so each child has one
    /// parent row. SQLite takes a key naming a column its parent does not have, or one
    /// that is not unique, and fails each write with "foreign key mismatch"; as a
    /// relationship the first would read a column that is not there, the second would be
    /// a to-one reaching several rows. A key of one column naming no column of a parent
    /// with no declared key (`REFERENCES parent`) is read by the parent's rowid, as
    /// Quarry knows its rows.
    func namesParentColumns(_ key: ForeignKey) -> Bool {
        guard let parent = relations[key.parent] else { return false }
        guard let named = referencedColumns(of: key) else {
            return key.parentColumns.isEmpty && parent.primaryKey.isEmpty && key.columns.count == 1
        }
        let columns = Set(parent.columns.map { $0.name.lowercased() })
        guard named.count == key.columns.count, named.allSatisfy({ columns.contains($0.lowercased()) }) else { return false }
        guard let unique = parent.uniqueKeys else { return true }
        let wanted = Set(named.map { $0.lowercased() })
        return ([parent.primaryKey] + unique).contains { Set($0.map { $0.lowercased() }) == wanted }
    }

    /// The note for a foreign key naming columns its parent does not have or does not
    /// hold unique.
    func unusableKeyNote(_ table: String, _ key: ForeignKey) -> String {
        let named = key.parentColumns.isEmpty ? key.parent : "\(key.parent)(\(key.parentColumns.joined(separator: ", ")))"
        let columns = Set((relations[key.parent]?.columns ?? []).map { $0.name.lowercased() })
        let lacks = referencedColumns(of: key)?.contains { !columns.contains($0.lowercased()) } ?? true
        let why = lacks ? "which \(key.parent) does not have" : "which \(key.parent) does not hold unique"
        return "\(table)(\(key.columns.joined(separator: ", "))) references \(named), \(why): read as its columns, not as a relationship"
    }

    package func referencedColumns(of key: ForeignKey) -> [String]? {
        if !key.parentColumns.isEmpty { return key.parentColumns }
        guard let primaryKey = relations[key.parent]?.primaryKey, primaryKey.count == key.columns.count else { return nil }
        return primaryKey
    }

    package init(relations: [String: Relation] = [:]) {
        self.relations = relations
    }
}
