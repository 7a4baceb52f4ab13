import CQuarryRows
import Foundation
import QuarryModel

/// What an import did.
public struct ImportSummary: Equatable, Sendable {
    public var rows: Int
    public var createdEntity: Bool
    /// Whether the entity was a table another program made since the open, read now.
    public var foundEntity = false
    /// How many cells of each column became nil (a field in `nulls`, a JSON null), by
    /// column in the file's order; columns with none left out.
    public var nilCells: [NilCells] = []
    /// Columns of a new entity made text only because quoted cells spell another type
    /// (`"89.90"` among numbers), by column in the file's order: the import says so.
    public var quotedColumns: [QuotedColumn] = []
    /// Columns of a new entity made text by a few cells that are not of the type the
    /// others are (`1`, `n/a`, `3`), by column in the file's order: the import names the
    /// first such cell and counts them.
    public var textColumns: [TextColumn] = []
    /// Why a CSV file was read with commas though another separator split its header
    /// (`CSVSeparator.doubt`); nil when the separator was given or found.
    public var separatorDoubt: String?
    /// A CSV file's first record read as a row, not as names (`CSVFirstRecord`), and the
    /// field that showed it; nil when it named the columns or `header` was given.
    public var firstRowIsData: FirstRowAsData?
    /// The columns a CSV header left unnamed (an empty field), named by their place
    /// (`column5`), in the file's order: the import says so.
    public var unnamedColumns: [String] = []

    public struct NilCells: Equatable, Sendable {
        public var column: String
        public var count: Int
    }

    public struct TextColumn: Equatable, Sendable {
        public var column: String
        /// The type the other cells have.
        public var type: AttributeType
        /// How many cells are not of it: all of them when `exact`, else those the import
        /// read to infer types (its first rows, and each that widened a column after them).
        public var count: Int
        public var exact: Bool
        /// The first such cell: its line in the file (an editor's numbering) and text, clipped.
        public var firstLine: Int
        public var firstText: String
    }

    public struct QuotedColumn: Equatable, Sendable {
        public var column: String
        /// The quoted cells (of those read to infer types) that spell another type.
        public var count: Int
        /// The type the column would have had were they unquoted.
        public var unquotedType: AttributeType
    }
}

/// An import of a CSV file (header row, RFC 4180) or a JSON array of objects into an
/// entity (`import()`), run as the fetch layer's requests are: `execute(in:)`.
public struct ImportRequest {
    /// The file (or FIFO) to read.
    public var path: String
    /// The entity the rows go to, created when missing.
    public var entityName: String
    /// Some columns' types instead of inferred ones (a new entity only).
    public var types: [String: AttributeType]
    /// The unquoted fields of a CSV file read as nil (`nulls = { "", "NA" }`, the default).
    public var nulls: [String]
    /// The byte between a CSV file's fields; nil: a tab for a `.tsv` or `.tab` path (as
    /// export writes one), else sniffed from the file's first records (`CSVSeparator`).
    public var separator: UInt8?
    /// Whether a CSV file's first record names the columns; nil: as it reads
    /// (`CSVFirstRecord`: a record of numbers or dates where the columns hold them is data).
    public var header: Bool?
    /// The cells each column's import made nil, counted as batches leave the parser.
    let nilTally = NilTally()

    public init(
        _ path: String, into entityName: String, types: [String: AttributeType] = [:], nulls: [String] = ["", "NA"], separator: UInt8? = nil,
        header: Bool? = nil
    ) {
        self.header = header
        self.path = path
        self.entityName = entityName
        self.types = types
        self.nulls = nulls
        self.separator = separator
    }

    /// Imports the file into `entityName`,
    /// creating the entity when missing with types inferred over each whole column: a CSV
    /// file's from its first rows, widened (the import starts again) when a later cell
    /// does not fit; a JSON document's in a first pass over every element. Both are read
    /// a chunk at a time, so memory does not grow with the file (a stream, such as a FIFO,
    /// is first copied to a temporary file: `ImportSpool`).
    /// One transaction: a bad row stops the import, names its line, and leaves the store
    /// as it was. `progress` hears rows done and rows in all.
    /// `types` gives some columns' types instead of inferring them (a new entity only).
    public func execute(in context: ObjectContext, progress: ((_ done: Int, _ total: Int) -> Void)? = nil) throws -> ImportSummary {
        try context.checkWrite("import")
        if let problem = SchemaName.problem(entityName) {
            throw StoreError.importFailed(path: path, line: nil, reason: "the entity name \(SchemaName.shown(entityName)) \(problem)")
        }
        // A table another program made since the open (psql's CREATE TABLE) is read now,
        // and the rows go into it.
        var found = false
        if context.managedObjectModel.entitiesByName[entityName] == nil, try context.store.adoptNewRelation(entityName, session: context.session) {
            found = true
            context.bumpGeneration()
        }
        // A store whose entities are another program's model takes no new one: refused
        // before the file is read, and nothing is written.
        if let known = context.managedObjectModel.entitiesByName[entityName] {
            // As a save would refuse it: a view's rows are its tables'.
            if context.mapped(known).isView { throw StoreError.viewIsReadOnly(entity: entityName) }
        } else {
            do { try context.store.refuseDefining(entityName, whole: false) } catch StoreError.invalidSchema(_, let reason) {
                throw StoreError.importFailed(path: path, line: nil, reason: "\(entityName) is not an entity of the store, and \(reason)")
            }
        }
        if readsJSON, separator != nil {
            throw StoreError.importFailed(path: path, line: nil, reason: "separator applies to CSV files; a .json file is read as JSON")
        }
        if readsJSON, header != nil {
            throw StoreError.importFailed(path: path, line: nil, reason: "header applies to CSV files; a .json file's keys name its columns")
        }
        let (open, size) = try Self.reopenable(path)
        var sniffed: CSVSeparator?
        if !readsJSON, separator == nil, !readsTabs { sniffed = try CSVSeparator.sniff(open) }
        let between = separator ?? sniffed?.separator ?? (readsTabs ? 9 : CSVSeparator.comma)
        var table =
            readsJSON
            ? try JSONImport(path: path, open: open).table()
            : try CSVImport(path: path, open: open, nulls: NullTexts(nulls), separator: between, header: header).table()
        table.progress.size = size
        // A file without a header goes into an existing entity column by column, as
        // sqlite3's `.import` fills an existing table.
        if !table.namedByFile, let known = context.managedObjectModel.entitiesByName[entityName] {
            table.columns = try positionalColumns(table.columns.count, of: known)
        }
        // A column the engine computes (a generated one) is refused in the words a save uses.
        if context.managedObjectModel.entitiesByName[entityName] != nil {
            do { try context.store.refuseSetting(table.columns, of: entityName, operation: "import") } catch StoreError.during(
                _, .database(let message))
            {
                throw StoreError.importFailed(path: path, line: 1, reason: message)
            }
        }
        try declare(types, in: &table, known: context.managedObjectModel.entitiesByName[entityName] != nil)
        // Types inferred from a sample are checked on every row of a new entity; a cell
        // that widens a column starts the import again (nothing of the first try stays).
        var check: [ColumnType]? = table.count == nil && context.managedObjectModel.entitiesByName[entityName] == nil ? table.types : nil
        while true {
            do {
                var summary = try load(table, check: check, in: context, progress: progress)
                summary.foundEntity = found
                summary.separatorDoubt = sniffed?.doubt
                summary.firstRowIsData = table.firstRowIsData
                summary.unnamedColumns = table.unnamedColumns
                return summary
            } catch let restart as ImportRestart {
                table.types = restart.types
                check = restart.types
            }
        }
    }

    /// Whether the file is read as JSON (an array of objects), not CSV: by its name.
    package var readsJSON: Bool { path.lowercased().hasSuffix(".json") }

    /// Whether the file's fields are separated by tabs unless `separator` says otherwise:
    /// a `.tsv` or `.tab` path, as export writes TSV to one.
    var readsTabs: Bool { TableWriter.format(forPath: path) == .tsv }

    /// Sets the declared types on their columns: each must name a column of the file, and
    /// only a new entity takes them (an existing one's attributes are its types).
    private func declare(_ declared: [String: AttributeType], in table: inout ImportTable, known: Bool) throws {
        guard !declared.isEmpty else { return }
        if known {
            throw StoreError.importFailed(
                path: path, line: nil, reason: "types apply to a new entity; \(entityName) exists, and its attributes' types are the columns' types")
        }
        for (name, type) in declared.sorted(by: { $0.key < $1.key }) {
            guard let index = table.columns.firstIndex(of: name) else {
                throw StoreError.importFailed(
                    path: path, line: 1, field: .named(name),
                    reason: "types names '\(name)', which is not a column of the file"
                        + (closestMatch(to: name, in: table.columns).map { " (did you mean '\($0)'?)" } ?? ""))
            }
            table.types[index].declared = type
        }
    }

    /// The names of `entity`'s attributes in their declared order, for a file of `count`
    /// unnamed columns: refused in one line when the counts differ.
    private func positionalColumns(_ count: Int, of entity: EntityDescription) throws -> [String] {
        let names = entity.attributeNames
        guard names.count == count else {
            let listed = names.count <= 8 ? " (" + names.joined(separator: ", ") + ")" : ""
            throw StoreError.importFailed(
                path: path, line: nil,
                reason: "the file has no header and \(count) \(count == 1 ? "column" : "columns"), and \(entityName) has \(names.count) "
                    + "\(names.count == 1 ? "attribute" : "attributes")\(listed): without names its columns are taken in that order, so the counts must agree"
            )
        }
        return names
    }

    /// Opens `path` once, and gives a way to read it again from the start as often as an
    /// import needs (the sample, every row, again after a widening), with its size. A plain
    /// file is opened anew each time, so no pass holds more than a chunk; a FIFO, a pipe or
    /// a device reads once, so it is first copied to a temporary file (`ImportSpool` says why).
    private static func reopenable(_ path: String) throws -> (() throws -> ByteSource, Int) {
        let first = try FileSource(path: path)
        if first.isRewindable {
            var unused: FileSource? = first
            return (
                {
                    if let source = unused {
                        unused = nil
                        return source
                    }
                    return try FileSource(path: path)
                }, first.size
            )
        }
        let spool = try ImportSpool(copying: first)
        return ({ try spool.source() }, spool.size)
    }

    private func load(
        _ table: ImportTable, check: [ColumnType]?, in context: ObjectContext,
        progress: ((Int, Int) -> Void)?
    ) throws -> ImportSummary {
        let existing = context.managedObjectModel.entitiesByName[entityName]
        if existing?.isAbstract == true {
            throw StoreError.importFailed(
                path: path, line: nil, reason: "\(entityName) is abstract: it makes no objects (import into one of its sub-entities)")
        }
        let entity =
            try existing
            ?? EntityDescription(
                name: entityName,
                attributes: table.columns.enumerated().map { i, name in
                    if name == EntityStorage.quarryKeyColumn || name.isEmpty {
                        throw StoreError.importFailed(path: path, line: 1, field: .column(i + 1, name), reason: "'\(name)' cannot be a column name")
                    }
                    let type = table.types[i]
                    return AttributeDescription(name: name, type: type.attributeType, isOptional: type.isOptional)
                })
        if table.columns.isEmpty, existing == nil {
            throw StoreError.importFailed(path: path, line: nil, reason: "no columns to make entity \(entityName) from (the file names no keys)")
        }
        var attributes: [AttributeDescription] = []
        for (i, name) in table.columns.enumerated() {
            guard let attribute = entity.attribute(named: name) else {
                // A column the header left unnamed is named by its place, which the
                // entity's attributes seldom are: the reason says where the name came from.
                let unnamed = table.unnamedColumns.contains(name) ? "column \(i + 1) has no name in the header (read as '\(name)'), and " : ""
                throw StoreError.importFailed(
                    path: path, line: 1, field: .column(i + 1, name),
                    reason: unnamed + "entity \(entityName) has no attribute '\(name)'"
                        + (closestMatch(to: name, in: entity.attributeNames).map { " (did you mean '\($0)'?)" } ?? ""))
            }
            attributes.append(attribute)
        }
        // A set, not the list: with 100,000 columns, a lookup per attribute in the list
        // was most of the time an import took to refuse the header.
        let named = Set(table.columns)
        let missing = entity.attributes.filter { a in !a.isOptional && a.defaultValue == nil && !named.contains(a.name) }
        if let first = missing.first {
            throw StoreError.importFailed(
                path: path, line: 1, field: .named(first.name), reason: "required attribute '\(first.name)' of \(entityName) has no column")
        }
        let defaults = entity.attributes.filter { a in a.defaultValue != nil && !named.contains(a.name) }
        // The store's own path: a server's COPY, a SQLite file's inserts bound in C.
        let rows = try context.store.load(
            self, table, check: check, attributes: attributes, defaults: defaults, entity: entity,
            creating: existing == nil, session: context.session, progress: progress)
        progress?(rows, rows)
        if existing == nil { context.didDefine(entity) } else { context.bumpGeneration() }
        let nils = zip(table.columns, nilTally.counts).compactMap { column, count in
            count > 0 ? ImportSummary.NilCells(column: column, count: count) : nil
        }
        let quoted =
            existing == nil
            ? zip(table.columns, table.types).compactMap { column, type in
                type.typeIfUnquoted.map { ImportSummary.QuotedColumn(column: column, count: type.quotedNonText, unquotedType: $0) }
            } : []
        let text =
            existing == nil
            ? zip(table.columns, table.types).compactMap { column, type in
                type.madeTextBy.map {
                    ImportSummary.TextColumn(
                        column: column, type: $0.type, count: $0.count, exact: table.count != nil, firstLine: $0.firstLine, firstText: $0.firstText)
                }
            } : []
        return ImportSummary(rows: rows, createdEntity: existing == nil, nilCells: nils, quotedColumns: quoted, textColumns: text)
    }

    /// The parser thread started on `table`'s rows, filling batches of `rowsPerBatch` rows
    /// (`ImportPipeline`); the caller calls `finish` on every way out.
    package func startPipeline(
        _ table: ImportTable, check: [ColumnType]?, attributes: [AttributeDescription], fixed: [Value],
        rowsPerBatch: Int
    ) throws -> ImportPipeline {
        let pipeline = ImportPipeline(path: path, width: attributes.count + fixed.count, rowsPerBatch: rowsPerBatch, slots: 4)
        // Counted anew by each try (a widening starts the import again).
        nilTally.start(columns: attributes.count)
        pipeline.tally = nilTally
        let produce = table.produce
        try pipeline.start { pipeline in try produce(check, attributes, fixed, pipeline) }
        return pipeline
    }

    /// After `batch` went into the store: its rows counted, progress heard every 10,000
    /// rows, and the batch given back to the parser.
    package func inserted(
        _ batch: CellBatch, rows: inout Int, _ table: ImportTable, _ pipeline: ImportPipeline,
        progress: ((Int, Int) -> Void)?
    ) {
        let before = rows
        rows += batch.rows
        table.progress.bytesRead = batch.bytesRead
        if rows / 10_000 != before / 10_000 { progress?(rows, table.count ?? table.progress.estimate(rows)) }
        pipeline.recycle(batch)
    }
}

/// The cells of each column an import made nil: counted by the parser thread as it hands
/// each batch over (`ImportPipeline.send`), under the pipeline's lock, and read when the
/// import is done, whichever store's path inserted the batches.
final class NilTally: @unchecked Sendable {
    private(set) var counts: [Int] = []

    func start(columns: Int) { counts = Array(repeating: 0, count: columns) }

    func add(_ batch: CellBatch) {
        let columns = counts.count
        guard columns > 0 else { return }
        let null = UInt8(QUARRY_IMPORT_NULL)
        for row in 0..<batch.rows {
            let first = row * batch.width
            for column in 0..<columns where batch.kinds[first + column] == null { counts[column] += 1 }
        }
    }
}
