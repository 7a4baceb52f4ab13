import Foundation
import QuarryModel

/// What Quarry keeps about a SQLite file it did not create, outside that file: the file
/// gains only what its user asks for (rows saved, a table imported), never a table of
/// Quarry's. The declarations that should outlast a session live in a sidecar beside
/// it, `<file>.quarry` (`music.sqlite` → `music.sqlite.quarry`), a small JSON document
/// Quarry owns and rewrites whole (through a temporary file and a rename):
///
///     {"quarry": 1,
///      "relate": [{"source": "Flight", "column": "carrier", "destination": "Airline",
///                  "destinationColumn": "carrier", "name": null, "inverse": null},
///                 {"source": "item", "column": "player", "destination": "inv", "destinationColumn": "player",
///                  "name": null, "inverse": null, "columns": ["player", "inv_id"], "destinationColumns": ["player", "inv_id"]}],
///      "entities": [{"name": "cars", "definition": "<the stored definition, as quarry_model keeps it>"}],
///      "formats": [{"entity": "Invoice", "column": "InvoiceDate", "format": "iso-space"},
///                  {"entity": "urls", "column": "last_visit_time", "format": "webkit", "never": 0}],
///      "templates": [{"name": "recent", "entity": "Invoice", "predicate": "InvoiceDate > $SINCE", "problem": null}]}
///
/// `relate` lists the `relate()` calls to repeat on reopening; `entities` the model of
/// each entity imported (or defined) into the file, which its table alone cannot give
/// back (dates, booleans, optionality); `formats` the `format()` declarations, by the
/// names `format()` takes (a sidecar without it declares none); `templates` the fetch
/// request templates `model()` read from a model (a predicate, or why it could not be
/// read). Nothing else is kept: history needs no table
/// (other processes' changes are seen through `PRAGMA data_version` and row hashes).
package struct ForeignSidecar: Equatable {
    package struct Relation: Equatable {
        package var source: String, column: String, destination: String, destinationColumn: String
        package var name: String?, inverse: String?
        /// A link through several columns (`relate("item", { "player", "inv_id" }, "inv", { "player",
        /// "inv_id" })`): all of them, in order (`column` and `destinationColumn` are the first
        /// of each); nil for one column, so a sidecar written before them reads as it was.
        package var columns: [String]? = nil, destinationColumns: [String]? = nil

        /// The source's columns and the destination's they match, one or several.
        package var allColumns: [String] { columns ?? [column] }
        package var allDestinationColumns: [String] { destinationColumns ?? [destinationColumn] }
    }
    package var relations: [Relation] = []
    package var entities: [(name: String, definition: String)] = []
    /// Declared column formats (`format(entity, column, name)`), the last for a column kept;
    /// for a time kept as a number, the number meaning "never" (`{ never = 0 }`).
    package struct Format: Equatable {
        package var entity: String, column: String, format: String
        package var never: Int64? = nil
    }
    package var formats: [Format] = []
    package var templates: [CoreDataFetchRequest] = []

    package static func == (a: ForeignSidecar, b: ForeignSidecar) -> Bool {
        a.relations == b.relations && a.formats == b.formats && a.templates == b.templates && a.entities.map(\.name) == b.entities.map(\.name)
            && a.entities.map(\.definition) == b.entities.map(\.definition)
    }

    package static func path(for database: String) -> String { database + ".quarry" }

    /// The largest sidecar read: its declarations are a few hundred bytes each.
    static let largest = 16 << 20

    /// The sidecar of `database`: empty when there is none; a sidecar that does not read
    /// is refused in one line, and left as it is.
    package static func load(for database: String) throws -> ForeignSidecar {
        let path = path(for: database)
        guard FileManager.default.fileExists(atPath: path) else { return ForeignSidecar() }
        func broken(_ why: String) -> StoreError {
            StoreError.database(
                message:
                    "\(path): \(why); it keeps the declarations (relate, imported entities, formats, templates) of \(database): mend it or move it away"
            )
        }
        // Read as a model file is: a regular file only (a link to /proc/self/pagemap or a
        // FIFO is refused, not read without end), and of a bounded size.
        let bytes: [UInt8]
        do { bytes = try ModelFileReader.read(path, limit: Self.largest) } catch let error as ModelFileError {
            throw broken("cannot be read (\(error.detail.replacingOccurrences(of: "a model file", with: "a sidecar")))")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw broken("is not UTF-8 text") }
        guard let tree = try? JSONTree(parsing: text), tree["quarry"]?.integer == 1 else {
            throw broken("is not a Quarry sidecar (JSON with \"quarry\": 1)")
        }
        var sidecar = ForeignSidecar()
        for item in tree["relate"]?.array ?? [] {
            guard let source = item["source"]?.string, let column = item["column"]?.string,
                let destination = item["destination"]?.string, let destinationColumn = item["destinationColumn"]?.string
            else {
                throw broken("a \"relate\" entry lacks source, column, destination or destinationColumn")
            }
            var relation = Relation(
                source: source, column: column, destination: destination, destinationColumn: destinationColumn,
                name: item["name"]?.string, inverse: item["inverse"]?.string)
            if let columns = item["columns"]?.array, let destinationColumns = item["destinationColumns"]?.array {
                let (a, b) = (columns.compactMap(\.string), destinationColumns.compactMap(\.string))
                guard a.count == columns.count, b.count == destinationColumns.count, a.count == b.count, a.count > 1 else {
                    throw broken("a \"relate\" entry's columns and destinationColumns are not two lists of as many names")
                }
                (relation.columns, relation.destinationColumns) = (a, b)
            }
            sidecar.relations.append(relation)
        }
        for item in tree["entities"]?.array ?? [] {
            guard let name = item["name"]?.string, let definition = item["definition"]?.string else {
                throw broken("an \"entities\" entry lacks name or definition")
            }
            sidecar.entities.append((name, definition))
        }
        for item in tree["formats"]?.array ?? [] {
            guard let entity = item["entity"]?.string, let column = item["column"]?.string, let format = item["format"]?.string else {
                throw broken("a \"formats\" entry lacks entity, column or format")
            }
            // A "never" that is there but no integer is refused, not dropped: it would
            // turn nil dates into numbers.
            var never: Int64?
            if let given = item["never"], !given.isNull {
                guard let number = given.integer else { throw broken("a \"formats\" entry's never is not an integer") }
                never = number
            }
            sidecar.formats.append(Format(entity: entity, column: column, format: format, never: never))
        }
        for item in tree["templates"]?.array ?? [] {
            guard let name = item["name"]?.string, let entity = item["entity"]?.string else {
                throw broken("a \"templates\" entry lacks name or entity")
            }
            sidecar.templates.append(
                CoreDataFetchRequest(
                    name: name, entity: entity,
                    predicate: CoreDataPredicate(format: item["predicate"]?.string, problem: item["problem"]?.string)))
        }
        return sidecar
    }

    package var text: String {
        func optional(_ s: String?) -> String { s.map(jsonQuoted) ?? "null" }
        func several(_ r: Relation) -> String {
            guard let columns = r.columns, let destinationColumns = r.destinationColumns else { return "" }
            return ", \"columns\": [" + columns.map(jsonQuoted).joined(separator: ", ") + "], \"destinationColumns\": ["
                + destinationColumns.map(jsonQuoted).joined(separator: ", ") + "]"
        }
        let relate = relations.map { r in
            "{\"source\": \(jsonQuoted(r.source)), \"column\": \(jsonQuoted(r.column)), \"destination\": \(jsonQuoted(r.destination)), "
                + "\"destinationColumn\": \(jsonQuoted(r.destinationColumn)), \"name\": \(optional(r.name)), \"inverse\": \(optional(r.inverse))"
                + several(r) + "}"
        }
        let entities = entities.map { "{\"name\": \(jsonQuoted($0.name)), \"definition\": \(jsonQuoted($0.definition))}" }
        let formats = formats.map {
            "{\"entity\": \(jsonQuoted($0.entity)), \"column\": \(jsonQuoted($0.column)), \"format\": \(jsonQuoted($0.format))"
                + ($0.never.map { ", \"never\": \($0)" } ?? "") + "}"
        }
        let templates = templates.map { t in
            "{\"name\": \(jsonQuoted(t.name)), \"entity\": \(jsonQuoted(t.entity)), \"predicate\": \(optional(t.predicate?.format)), \"problem\": \(optional(t.predicate?.problem))}"
        }
        return "{\"quarry\": 1,\n \"relate\": [" + relate.joined(separator: ",\n  ") + "],\n \"entities\": [" + entities.joined(separator: ",\n  ")
            + "],\n \"formats\": [" + formats.joined(separator: ",\n  ") + "],\n \"templates\": [" + templates.joined(separator: ",\n  ") + "]}\n"
    }

    /// Writes the sidecar whole: a crash leaves the old one or the new one, never half.
    package func save(for database: String) throws {
        let path = Self.path(for: database)
        let temporary = path + ".tmp"
        func refusal(_ why: String) -> StoreError {
            StoreError.database(message: "cannot write \(path), which keeps the declarations of \(database): \(why)")
        }
        // When nothing was made, whatever is at the temporary path stays.
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else {
            throw refusal("\(temporary) cannot be made")
        }
        guard rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporary)
            throw refusal(why)
        }
    }
}
