// One input of the CSV import fuzz target, shared by the libFuzzer target (Fuzz/) and the
// corpus replay test (Tests/QuarryStoreTests, through a symbolic link).
import Foundation
import GRDB
import QuarryStore
import QuarryModel
import QuarryStores
import QuarrySQLite

/// Writes the input to a file (`.json` when it starts with `[` or `{`, else `.csv`) and
/// imports it twice into a fresh in-memory store holding two rows of `Item`: into `Item`
/// (cells converted to its types) and into a new entity (types inferred). Errors are
/// fine; a failed import must leave the store exactly as it was, and a successful one
/// must add the rows it counts, readable back as objects. Returns what went wrong, or nil.
enum CSVFuzzDriver {
    static let path: String = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-fuzz-csv-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }()

    static func run(_ bytes: [UInt8]) -> String? {
        let json = bytes.first { $0 != 32 && $0 != 10 && $0 != 13 && $0 != 9 }.map { $0 == 91 || $0 == 123 } ?? false
        let file = path + (json ? "/input.json" : "/input.csv")
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else { return "cannot write \(file)" }
        defer { try? FileManager.default.removeItem(atPath: file) }
        do {
            let context = try OpenFileRequest.open(path: nil)
            try context.define(EntityDescription(name: "Item", attributes: [
                AttributeDescription(name: "a", type: .int64, isOptional: true),
                AttributeDescription(name: "b", type: .string, isOptional: true),
                AttributeDescription(name: "c", type: .double, isOptional: true),
                AttributeDescription(name: "d", type: .bool, isOptional: true),
                AttributeDescription(name: "e", type: .date, isOptional: true),
                AttributeDescription(name: "k", type: .string, defaultValue: .text("k")),
                AttributeDescription(name: "n", type: .int16, isOptional: true),
            ]))
            _ = try context.insert(into: "Item", values: ["a": .integer(1), "b": .text("one"), "k": .text("x")])
            _ = try context.insert(into: "Item", values: ["c": .real(2.5), "e": .date(0)])
            _ = try context.save()
            for entity in ["Item", "Fresh"] {
                if let finding = try importChecked(file, into: entity, context) { return "import into \(entity): \(finding)" }
            }
        } catch {
            return "the fixture failed: \(error)"
        }
        return nil
    }

    private static func importChecked(_ file: String, into name: String, _ context: ObjectContext) throws -> String? {
        let before = try snapshot(context)
        let entitiesBefore = context.entities
        let rowsBefore = try count(name, context)
        let summary: ImportSummary
        do {
            summary = try ImportRequest(file, into: name).execute(in: context)
        } catch {
            if try snapshot(context) != before { return "failed (\(error)) but changed the store" }
            if context.entities != entitiesBefore { return "failed (\(error)) but changed the model in memory" }
            if context.hasChanges { return "failed (\(error)) but left pending changes" }
            return nil
        }
        guard let entity = context.entities.first(where: { $0.name == name }) else { return "succeeded but \(name) is not defined" }
        if summary.createdEntity != (rowsBefore == nil) { return "createdEntity is \(summary.createdEntity)" }
        let rowsAfter = try count(name, context) ?? -1
        if rowsAfter != (rowsBefore ?? 0) + summary.rows {
            return "reported \(summary.rows) rows but the table went from \(rowsBefore ?? 0) to \(rowsAfter)"
        }
        // Every row reads back as an object whose values fit the entity's types.
        let rows = try context.connection.rows("SELECT \(context.mapped(entity).selection(of: entity)) FROM \(quoteIdentifier(name))")
        for row in rows {
            let object = try context.object(for: entity, values: row)
            for (key, value) in object.values {
                guard let attribute = entity.attribute(named: key) else { continue }
                if value.isNull {
                    if !attribute.isOptional { return "required \(key) read back as nil" }
                } else if case .failure = attribute.type.coerce(value) {
                    return "\(key) (\(attribute.type.rawValue)) read back as \(value)"
                }
            }
        }
        return nil
    }

    /// The count of rows of `name`, or nil when it has no table.
    private static func count(_ name: String, _ context: ObjectContext) throws -> Int? {
        try context.connection.read { db in
            guard try db.tableExists(name) else { return nil }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoteIdentifier(name))")
        }
    }

    /// Every table's definition and rows, as text.
    private static func snapshot(_ context: ObjectContext) throws -> String {
        try context.connection.read { db in
            var text = ""
            for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY type, name") {
                let type: String = row[0], name: String = row[1], sql: String? = row[2]
                text += "\(type) \(name): \(sql ?? "")\n"
                guard type == "table" else { continue }
                for r in try Row.fetchAll(db, sql: "SELECT * FROM \(quoteIdentifier(name))") { text += "  \(r)\n" }
            }
            return text
        }
    }
}
