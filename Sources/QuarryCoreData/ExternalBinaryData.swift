import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// Core Data's "Allows External Storage" binary attributes, as its SQLite store keeps them
/// (`_PFExternalReferenceData`): the column's first byte says where the bytes are.
/// - `0x01`, then the bytes: kept in the row (small values).
/// - `0x02`, then a file name (a UUID) and a NUL: the bytes are the file of that name in
///   `.<store name>_SUPPORT/_EXTERNAL_DATA/` beside the store (large values).
/// Any other value is read as it is (a store written before the attribute allowed external
/// storage). The Core Data views read through `quarry_cd_external_read` and the triggers
/// write through `quarry_cd_external_write`, so predicates, sorts and saves see the
/// attribute's bytes. One per connection: the files a transaction wrote are removed if it
/// rolls back, and the files of values it replaced or deleted are removed once it commits.
/// Unchecked: the SQL functions (GRDB's, `@Sendable`) hold it; the files of a save are
/// kept under `lock`, and `engineLimit` and `isInUse` are set as the connection and the
/// store open, on the one thread that runs its statements.
public final class ExternalBinaryData: @unchecked Sendable {
    /// `.<name>_SUPPORT/_EXTERNAL_DATA` beside the store; nil for a store in memory.
    /// Made when first used: every SQLite connection has one of these, and making a URL
    /// was a tenth of opening a file that holds no external data (its first use asks the
    /// Swift runtime for conformances, a search of the whole binary).
    var folder: URL? {
        guard let storePath, storePath != ":memory:" else { return nil }
        let store = URL(fileURLWithPath: storePath)
        let name = store.deletingPathExtension().lastPathComponent
        return store.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT").appendingPathComponent("_EXTERNAL_DATA")
    }
    private let storePath: String?
    /// Values at least this long are written to a file, as Core Data writes large values.
    static let threshold = 128 * 1024
    /// The largest file read back (a forged reference to a huge or endless file is refused).
    static let largestFile = 1 << 31
    /// SQLite's largest value on this connection (SQLITE_LIMIT_LENGTH), set when the
    /// functions are installed: a file past it could be read but never returned.
    var engineLimit = Int.max

    /// Whether the store behind the connection is a Core Data store with such an
    /// attribute: only then may SQL (its triggers) make or remove a file, so that no other
    /// file's trigger, view or default can.
    var isInUse = false

    private let lock = NSLock()
    /// Files written by the save in progress.
    private var written: [URL] = []
    /// Files of values the save in progress replaced or deleted.
    private var released: [URL] = []

    init(storePath: String?) {
        self.storePath = storePath
    }

    static let readFunction = "quarry_cd_external_read"
    static let writeFunction = "quarry_cd_external_write"
    static let releaseFunction = "quarry_cd_external_release"

    /// The SQL functions the views and triggers call, bound to this store's folder.
    var sqlFunctions: [DatabaseFunction] {
        [
            // (column) or (column, the attribute's label as UTF-8 bytes, Z_PK): the label
            // and key name the value in a refusal.
            DatabaseFunction(Self.readFunction, argumentCount: nil, pure: false) { [self] values in
                guard let column = values.first else { return nil as DatabaseValue? }
                let label = values.count > 1 ? Data.fromDatabaseValue(values[1]).map { String(decoding: $0, as: UTF8.self) } : nil
                let key = values.count > 2 ? Int64.fromDatabaseValue(values[2]) : nil
                return try read(column, of: label.map { ValueLabel(attribute: $0, key: key) })
            },
            DatabaseFunction(Self.writeFunction, argumentCount: 2, pure: false) { [self] values in
                try write(values[0], replacing: values[1])
            },
            DatabaseFunction(Self.releaseFunction, argumentCount: 1, pure: false) { [self] values in
                release(values[0])
                return nil as DatabaseValue?
            }
        ]
    }

    // MARK: Reading

    /// Which value a read is for (`Entity.attribute` and the row's Z_PK), as a refusal names it.
    struct ValueLabel {
        let attribute: String
        let key: Int64?
        var said: String { ErrorRendering.part(attribute, limit: 120) + (key.map { " of object \($0)" } ?? "") }
    }

    /// The SQL reading an external attribute's column in a view: the label goes as a blob
    /// literal (hex), so no name from the model needs quoting inside the SQL.
    static func readingSQL(_ column: String, attribute: String, key: String) -> String {
        let hex = attribute.utf8.map { String(format: "%02X", $0) }.joined()
        return "\(readFunction)(\(column), X'\(hex)', \(key))"
    }

    /// The attribute's bytes for a column's value.
    func read(_ value: DatabaseValue, of label: ValueLabel? = nil) throws -> DatabaseValue {
        guard case .blob(let data) = value.storage, let marker = data.first else { return value }
        switch marker {
        case 1: return Data(data.dropFirst()).databaseValue
        case 2:
            let file = try file(named: data)
            return try Self.contents(of: file, for: label, limits: limits).databaseValue
        default: return value
        }
    }

    /// What a file read back may hold at most, and why: the smallest of SQLite's largest
    /// value, `--memory` (SQLite's heap bound: the value is copied into it) and `largestFile`.
    private var limits: [(bytes: Int, reason: String)] {
        var limits = [(Self.largestFile, "the largest external file Quarry reads")]
        if engineLimit < Int.max { limits.append((engineLimit, "SQLite's largest value")) }
        let heap = SQLiteHeap.bytes
        if heap > 0 { limits.append((heap, "--memory")) }
        return limits
    }

    /// The file a reference names, refused unless it is a plain name inside the folder.
    private func file(named reference: Data) throws -> URL {
        var name = reference.dropFirst()
        if name.last == 0 { name = name.dropLast() }
        let text = String(decoding: name, as: UTF8.self)
        guard let folder else {
            throw DatabaseError(message: "an external data reference (\(text)) in a store with no folder beside it")
        }
        guard !text.isEmpty, !text.contains("/"), text != ".", text != "..", !name.contains(0) else {
            throw DatabaseError(message: "an external data reference that is not a file name: \(text.debugDescription)")
        }
        return folder.appendingPathComponent(text)
    }

    /// A regular file's bytes, read with a bound (never a device, a FIFO or a symlink out).
    /// The size is checked before a byte is read, so a file past a bound costs no memory.
    private static func contents(of file: URL, for label: ValueLabel?, limits: [(bytes: Int, reason: String)]) throws -> Data {
        let shown = file.pathComponents.suffix(3).joined(separator: "/")
        var info = stat()
        guard lstat(file.path, &info) == 0 else {
            throw DatabaseError(message: "the external data file \(shown) is missing")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DatabaseError(message: "the external data file \(shown) is not a regular file")
        }
        let size = Int(info.st_size)
        if let bound = limits.filter({ size > $0.bytes }).min(by: { $0.bytes < $1.bytes }) {
            let value = label.map { "\($0.said): " } ?? ""
            throw DatabaseError(
                message: "\(value)the external data file \(shown) holds \(size) bytes, more than \(bound.reason) allows (\(bound.bytes))")
        }
        do { return try Data(contentsOf: file) } catch {
            throw DatabaseError(message: "the external data file \(shown) cannot be read")
        }
    }

    // MARK: Writing

    /// The column's value for the bytes `value`, replacing the column's value `old` (whose
    /// file, if any, goes once the save commits).
    package func write(_ value: DatabaseValue, replacing old: DatabaseValue) throws -> DatabaseValue {
        guard isInUse else { throw DatabaseError(message: "\(Self.writeFunction)() writes only a Core Data store's external data") }
        release(old)
        guard case .blob(let data) = value.storage else { return value }
        guard data.count >= Self.threshold, let folder else { return (Data([1]) + data).databaseValue }
        let name = UUID().uuidString
        let file = folder.appendingPathComponent(name)
        try Self.checkFolders(folder)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: file, options: .withoutOverwriting)
        } catch {
            throw DatabaseError(message: "cannot write the external data file \(name): \(error.localizedDescription)")
        }
        lock.lock()
        written.append(file)
        lock.unlock()
        return (Data([2]) + Data(name.utf8) + Data([0])).databaseValue
    }

    /// `.<name>_SUPPORT` and its `_EXTERNAL_DATA` are folders or not there yet: anything
    /// else in their place (a file, a link to one) is said in Quarry's words, naming the
    /// path, rather than as Foundation's "error 512" once creating the folder fails.
    private static func checkFolders(_ folder: URL) throws {
        for path in [folder.deletingLastPathComponent().path, folder.path] {
            var info = stat()
            guard stat(path, &info) == 0 else { return }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw DatabaseError(message: "cannot write external data: \(path) should be a folder, and it is not")
            }
        }
    }

    /// Notes that the column's value `old` is replaced or deleted: its file goes at commit.
    func release(_ old: DatabaseValue) {
        guard isInUse, case .blob(let data) = old.storage, data.first == 2, let file = try? file(named: data) else { return }
        lock.lock()
        released.append(file)
        lock.unlock()
    }

    // MARK: The transaction's end

    private func committed() {
        lock.lock()
        let gone = released
        released = []
        written = []
        lock.unlock()
        for file in gone { try? FileManager.default.removeItem(at: file) }
    }

    private func rolledBack() {
        lock.lock()
        let gone = written
        written = []
        released = []
        lock.unlock()
        for file in gone { try? FileManager.default.removeItem(at: file) }
    }
}

/// The connection's transactions decide the files' fate: whatever wrote them (a save, a
/// batch change), a commit keeps what was written and removes what was replaced, and a
/// rollback removes what was written.
extension ExternalBinaryData: TransactionObserver {
    public func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    public func databaseDidChange(with event: DatabaseEvent) {}
    public func databaseDidCommit(_ db: Database) { committed() }
    public func databaseDidRollback(_ db: Database) { rolledBack() }
}
