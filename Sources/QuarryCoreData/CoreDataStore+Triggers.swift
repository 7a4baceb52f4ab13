import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// How writes through an entity's view reach the store's table, as Core Data writes them.
extension CoreDataStore {
    /// One column a view's writes reach: an attribute, or a to-one relationship's key
    /// (with the column that keeps the target's entity, when the destination has sub-entities).
    struct ColumnWrite {
        var key: String
        var column: String
        var type: AttributeType
        var entityColumn: String? = nil
        var destinationTable: String? = nil
        /// A property sibling sub-entities each declare: the column each one's rows (by
        /// entity number) keep it in (empty: `column`, for every row).
        var byEntity: [(codes: [Int64], column: String)] = []
        /// A binary attribute that allows external storage (`ExternalBinaryData`).
        var external = false
    }

    /// A value of Quarry's encoding written as Core Data keeps it.
    static func writing(_ value: String, as type: AttributeType) -> String {
        switch type {
        case .date: return "(\(value) - \(epochOffset))"
        case .uuid: return "\(uuidBlobFunction)(\(value))"
        default: return value
        }
    }

    /// The SQL function that turns UUID text into Core Data's 16-byte blob.
    public static let uuidBlobFunction = "quarry_uuid_blob"

    /// Writes through the view, as Core Data writes: a new row takes `Z_PK` from its root
    /// entity's `Z_MAX` (advanced in the same statement) with `Z_ENT` set and `Z_OPT` 1; a
    /// change writes only the columns assigned and adds 1 to `Z_OPT`; a delete removes the
    /// row. (Trigger bodies may not name a schema: the Z-tables are found in main, as no
    /// temporary object has their names.)
    static func triggers(view: String, table: String, code: Int64, rootCode: Int64, writes: [ColumnWrite]) -> [String] {
        let v = quoteIdentifier(view)
        let t = quoteIdentifier(table)
        let pk = quoteIdentifier(EntityStorage.quarryKeyColumn)
        func name(_ suffix: String) -> String { quoteIdentifier("quarry_\(view)_\(suffix)") }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values = ["(SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(rootCode))", "\(code)", "1"]
        var sql: [String] = []
        for w in writes {
            let written = writing("NEW.\(quoteIdentifier(w.key))", as: w.type)
            // An external value replaces the column's own (whose file goes at commit).
            func value(replacing column: String) -> String {
                w.external ? "\(ExternalBinaryData.writeFunction)(\(written), \(column))" : written
            }
            var assignments: [String]
            if w.byEntity.isEmpty {
                let column = quoteIdentifier(w.column)
                columns.append(column)
                values.append(value(replacing: "NULL"))
                assignments = ["\(column) = \(value(replacing: column))"]
            } else {
                // A new row is the view's own entity: the column of its declaration, if any.
                if let own = w.byEntity.first(where: { $0.codes.contains(code) }) {
                    columns.append(quoteIdentifier(own.column))
                    values.append(value(replacing: "NULL"))
                }
                assignments = w.byEntity.map { c in
                    let column = quoteIdentifier(c.column)
                    return
                        "\(column) = CASE WHEN Z_ENT IN (\(c.codes.map(String.init).joined(separator: ", "))) THEN \(value(replacing: column)) ELSE \(column) END"
                }
            }
            if let entityColumn = w.entityColumn, let destination = w.destinationTable {
                let target = "(SELECT Z_ENT FROM \(quoteIdentifier(destination)) WHERE Z_PK = NEW.\(quoteIdentifier(w.key)))"
                columns.append(quoteIdentifier(entityColumn))
                values.append(target)
                assignments.append("\(quoteIdentifier(entityColumn)) = \(target)")
            }
            sql.append(
                "CREATE TEMP TRIGGER \(name("set_" + w.key)) INSTEAD OF UPDATE OF \(quoteIdentifier(w.key)) ON \(v) BEGIN UPDATE \(t) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = OLD.\(pk); END"
            )
        }
        sql.append(
            "CREATE TEMP TRIGGER \(name("insert")) INSTEAD OF INSERT ON \(v) BEGIN UPDATE Z_PRIMARYKEY SET Z_MAX = coalesce(Z_MAX, 0) + 1 WHERE Z_ENT = \(rootCode); INSERT INTO \(t) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", "))); END"
        )
        sql.append(
            "CREATE TEMP TRIGGER \(name("update")) INSTEAD OF UPDATE ON \(v) BEGIN UPDATE \(t) SET Z_OPT = coalesce(Z_OPT, 0) + 1 WHERE Z_PK = OLD.\(pk); END"
        )
        // A deleted row's external values' files go once the delete commits.
        let releases = writes.filter(\.external).flatMap { w in w.byEntity.isEmpty ? [w.column] : w.byEntity.map(\.column) }.map { column in
            "SELECT \(ExternalBinaryData.releaseFunction)(\(quoteIdentifier(column))) FROM \(t) WHERE Z_PK = OLD.\(pk); "
        }.joined()
        sql.append("CREATE TEMP TRIGGER \(name("delete")) INSTEAD OF DELETE ON \(v) BEGIN \(releases)DELETE FROM \(t) WHERE Z_PK = OLD.\(pk); END")
        return sql
    }
}
