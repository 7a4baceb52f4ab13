/// What can go wrong in the store, as data; `ErrorRendering` makes the one-line message.
public enum StoreError: QuarryError {
    case unknownEntity(name: String, suggestion: String?)
    case unknownKey(entity: String, key: String, suggestion: String?)
    case typeMismatch(entity: String, key: String, expected: String, given: String)
    case validation(message: String)
    case invalidSchema(entity: String, reason: String)
    case migrationRefused(entity: String, reason: String)
    case objectDeleted(objectID: String)
    case readOnly(operation: String)
    /// A view of a file Quarry did not create: read, never written.
    case viewIsReadOnly(entity: String)
    /// A file an import refused: the line (a CSV line; none for a JSON array, whose
    /// elements the reason numbers) and, where the reason names one, the field, for a
    /// caller to read (`importField`) rather than parse from the words.
    case importFailed(path: String, line: Int?, field: ErrorDetail<ImportField?> = nil, reason: String)
    /// A file an operation (export) could not open or write; the file is as it was.
    case cannotWrite(operation: String, path: String, reason: String)
    /// Objects another connection changed (keys) or deleted since this context read them.
    case conflict([ConflictedObject])
    /// Quarry's own words about the store's file or its tables.
    case database(message: String)
    /// What an engine refused (a statement, a connection), as the engine said it: its
    /// code, the SQL when known and its words (`EngineFailure`; each engine's type lives
    /// in its own target). A constraint's refusal is `.constraint` and an interrupt
    /// `.interrupted` instead.
    case engine(any EngineFailure)
    /// A constraint the database refused a write for (unique, NOT NULL, foreign key,
    /// check), on either engine, with its table and columns as the engine named them.
    case constraint(ConstraintViolation)
    /// Work stopped by Ctrl-C or `--timeout`, on either engine or between statements.
    case interrupted(Interruption)
    /// A table Quarry reads (its own model or history, a foreign file's) lacks a column.
    case missingColumn(table: String, column: String)
    /// A stored value of the wrong kind, e.g. text where Quarry wrote an integer.
    case unexpectedValue(table: String, column: String, found: String, expected: String)
    /// A column of a file Quarry did not create whose values show no one format (`found`:
    /// the formats seen; none when it has no values), so a value cannot be written as its
    /// owner keeps them; `example` is a format to declare.
    case unknownFormat(entity: String, column: String, found: [String], example: String)
    /// The store was closed (`.open` replaced it): results and objects read from it
    /// can no longer read it.
    case closed
    /// Another error, inside an operation that names itself ("save: disk I/O error").
    indirect case during(operation: String, StoreError)

    public var operation: String? {
        switch self {
        case .readOnly(let operation): return operation
        case .invalidSchema(let entity, _), .migrationRefused(let entity, _): return "entity \(entity)"
        case .importFailed: return "import"
        case .cannotWrite(let operation, _, _): return operation
        case .conflict: return "save"
        case .during(let operation, let error): return [operation, error.operation].compactMap { $0 }.joined(separator: ": ")
        default: return nil
        }
    }

    public var message: String {
        switch self {
        case .unknownEntity(let name, _):
            return "unknown entity '\(name)'"
        case .unknownKey(let entity, let key, _):
            return "unknown key '\(key)' on entity \(entity)"
        case .typeMismatch(let entity, let key, let expected, let given):
            return "\(entity).\(key) expects \(expected), got \(given)"
        case .validation(let message), .database(let message):
            return message
        case .engine(let failure):
            return failure.message
        case .constraint(let violation):
            // SQLite's words on every engine where the parts say them (Quarry's words for
            // a constraint); else the engine's own, named when they are not SQLite's.
            guard violation.code.namedInMessages else { return violation.brokenRowWords ?? violation.said }
            return violation.brokenRowWords ?? violation.sqliteWords ?? "\(violation.code.engine): " + violation.said
        case .interrupted(let interruption):
            return interruption.said
        case .invalidSchema(_, let reason):
            return reason
        case .migrationRefused(_, let reason):
            return "cannot migrate: \(reason)"
        case .objectDeleted(let objectID):
            return "\(objectID) has been deleted"
        case .readOnly:
            return "the store is read-only"
        case .viewIsReadOnly(let entity):
            return "\(entity) is a view: its rows cannot be changed (change the tables it reads)"
        case .importFailed(_, _, _, let reason):
            return reason
        case .cannotWrite(_, let path, let reason):
            return "cannot write \(path): \(reason)"
        case .conflict(let objects):
            let described =
                objects.prefix(5).map { o in
                    o.deleted ? "deleted \(o.objectID)" : "changed \(o.objectID) (\(o.keys.joined(separator: ", ")))"
                }.joined(separator: "; ") + (objects.count > 5 ? "; and \(objects.count - 5) more" : "")
            // A merge is offered only where it can go through: a link that must keep a
            // deleted row (a required one) is named instead, with what can be done.
            let held = objects.flatMap(\.heldBy)
            if !held.isEmpty {
                let links = held.prefix(3).joined(separator: "; ") + (held.count > 3 ? "; and \(held.count - 3) more" : "")
                return "conflict: since they were read, another process \(described); nothing was written, and no merge can clear "
                    + "the links to it: \(links) (link to another object, or rollback())"
            }
            return
                "conflict: since they were read, another process \(described); nothing was written (save{ merge = \"store\" } keeps theirs, save{ merge = \"mine\" } keeps yours)"
        case .missingColumn(let table, let column):
            return "\(table): expected a column \(column), found none"
        case .unexpectedValue(let table, let column, let found, let expected):
            return "\(table).\(column) holds \(found) where \(expected) is expected"
        case .unknownFormat(let entity, let column, let found, let example):
            let held =
                found.isEmpty
                ? "has no values to show the format it keeps"
                : "holds values in no one format Quarry can write (found " + found.map { "'\($0)'" }.joined(separator: ", ") + ")"
            return "\(entity).\(column) \(held); nothing was written: declare its format, e.g. format(\"\(entity)\", \"\(column)\", \"\(example)\")"
        case .closed:
            return "its store is closed (.open replaced it): fetch again from the open one"
        case .during(_, let error):
            return error.message
        }
    }

    public var location: ErrorLocation? {
        switch self {
        case .importFailed(let path, let line, _, _): return .file(path: path, line: line, column: nil)
        case .during(_, let error): return error.location
        default: return nil
        }
    }

    public var suggestion: String? {
        switch self {
        case .unknownEntity(_, let suggestion), .unknownKey(_, _, let suggestion): return suggestion
        case .during(_, let error): return error.suggestion
        default: return nil
        }
    }

    public var remedy: String? {
        switch self {
        case .unexpectedValue: return "was the file changed by another program?"
        case .during(_, let error): return error.remedy
        default: return nil
        }
    }
}

/// One object of a save conflict.
public struct ConflictedObject: Equatable, Sendable {
    public var objectID: String
    public var keys: [String]
    public var deleted: Bool
    /// For a deleted row: the links of this save that name it and that no merge can clear
    /// ("Car/t1.owner is required"), which keep `merge` from being offered.
    public var heldBy: [String]
    public init(objectID: String, keys: [String], deleted: Bool, heldBy: [String] = []) {
        self.objectID = objectID
        self.keys = keys
        self.deleted = deleted
        self.heldBy = heldBy
    }
}
