import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// Links Core Data keeps where no join table of the plain name is: a to-many with no
/// inverse, and join tables and columns that carry a numeric suffix.
extension CoreDataStore {
    /// Whether `column` is `base`, or `base` with a numeric suffix Core Data added to tell
    /// it from another of the same name (`Z_3REPRESENTATIVEASSETS1` in `photos/`).
    static func isNamed(_ column: String, _ base: String) -> Bool {
        let upper = column.uppercased()
        guard upper.hasPrefix(base) else { return false }
        return upper.dropFirst(base.count).allSatisfy(\.isNumber)
    }

    /// The join table `name` or `name` with a numeric suffix (`Z_23USERS1`), with its two
    /// key columns: the first, plain or suffixed, that has a column `keyColumn` (plain or
    /// suffixed); else `name` itself when it has two key columns.
    static func joinTable(
        _ name: String, keyColumn: String, tables: Set<String>,
        columns: (String) throws -> [String]
    ) throws -> (table: String, keys: [String])? {
        // `tables` are upper-cased already: a prefix test passes over the many that are not
        // candidates without upper-casing each again (79 tables for each of 25 pairs).
        let candidates = [name] + tables.filter { $0 != name && $0.hasPrefix(name) && isNamed($0, name) }.sorted()
        var plain: (String, [String])?
        for table in candidates where tables.contains(table) {
            let keys = try columns(table).filter { !$0.uppercased().hasPrefix("Z_FOK") }
            guard keys.count == 2 else { continue }
            if keys.contains(where: { isNamed($0, keyColumn) }) { return (table, keys) }
            if table == name { plain = (table, keys) }
        }
        return plain
    }

    /// A to-many with no inverse: Core Data keeps no join table but a hidden column
    /// `Z<n><NAME>` in the destination's table (n the number of the entity declaring it),
    /// holding the owner's `Z_PK` (`photos/`: Asset's `libraryScopeAssetContributors` is
    /// `ZASSETCONTRIBUTOR.Z3LIBRARYSCOPEASSETCONTRIBUTORS`). Shown as the link view
    /// Quarry's relationship storage names; linking sets the column, unlinking clears it.
    func mapHiddenToManyColumns(
        _ lookups: ModelLookups, numbers: CoreDataNumbers,
        columns: (String) throws -> [String]
    ) throws {
        var done: Set<String> = []
        for mapped in entities {
            for r in mapped.entity.relationships where r.isToMany {
                guard let destination = self.mapped(r.destination) else { continue }
                if let inverse = r.inverse, destination.entity.relationship(named: inverse) != nil { continue }
                let declarer =
                    ([mapped.entity.name] + lookups.ancestors(of: mapped.entity.name).map(\.name))
                    .first { lookups.model.entity(named: $0)?.relationship(named: r.name) != nil } ?? mapped.entity.name
                let linkName = "quarry_link_\(declarer)_\(r.name)"
                guard done.insert(linkName).inserted else { continue }
                let available = try columns(destination.table)
                var column: String?
                for code in Self.codes(of: declarer, lookups: lookups, numbers: numbers) where column == nil {
                    let base = "Z\(code)\(r.name.uppercased())"
                    column = available.first { $0.uppercased() == base } ?? available.first { Self.isNamed($0, base) }
                }
                guard let column else {
                    notes.append(
                        "\(declarer).\(r.name): a to-many with no inverse, and no column Z<n>\(r.name.uppercased()) in \(destination.table) keeps it")
                    continue
                }
                let (link, table, c) = (quoteIdentifier(linkName), quoteIdentifier(destination.table), quoteIdentifier(column))
                linkViews.append(
                    LinkView(
                        name: linkName,
                        view: "CREATE TEMP VIEW \(link) AS SELECT \(c) AS source, Z_PK AS target FROM main.\(table) WHERE \(c) IS NOT NULL",
                        triggers: [
                            "CREATE TEMP TRIGGER \(quoteIdentifier(linkName + "_insert")) INSTEAD OF INSERT ON \(link) BEGIN UPDATE \(table) SET \(c) = NEW.source WHERE Z_PK = NEW.target; END",
                            "CREATE TEMP TRIGGER \(quoteIdentifier(linkName + "_delete")) INSTEAD OF DELETE ON \(link) BEGIN UPDATE \(table) SET \(c) = NULL WHERE Z_PK = OLD.target AND \(c) = OLD.source; END"
                        ]))
            }
        }
    }
}
