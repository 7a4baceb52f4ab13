import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// Reading the model a Core Data store carries with it: `Z_MODELCACHE.Z_CONTENT`, the
/// compiled model (a keyed archive) compressed with raw DEFLATE. Core Data writes it in
/// stores made since iOS 10/macOS 10.12; older stores have no such table. The store is
/// opened read-only (immutable when it has no `-wal`), so reading changes no byte of it
/// nor of its `-wal`, and leaves no `-wal` or `-shm` beside it.

extension CoreDataModel {
    /// Whether `db` holds a model cache (a `Z_MODELCACHE` table).
    public static func hasModelCache(_ db: Database) throws -> Bool {
        try db.hasTable("Z_MODELCACHE")
    }

    /// The model in `db`'s `Z_MODELCACHE`; `path` names the store in errors.
    public static func fromModelCache(_ db: Database, path: String) throws -> CoreDataModel {
        let blob: Data?
        do {
            guard try db.hasTable("Z_MODELCACHE") else {
                throw ModelFileError(.noModelCache, path: path, "the store has no Z_MODELCACHE table (a store older than iOS 10/macOS 10.12)")
            }
            let row = try Row.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
            guard let row else { throw ModelFileError(.noModelCache, path: path, "Z_MODELCACHE is empty") }
            // Not `row[0] as Data?`: GRDB traps when the column holds another type.
            let value: DatabaseValue = row[0]
            switch value.storage {
            case .blob(let data): blob = data
            case .null: blob = nil
            default: throw ModelFileError(.noModelCache, path: path, "Z_MODELCACHE.Z_CONTENT is not a blob")
            }
        } catch let error as ModelFileError {
            throw error
        } catch {
            throw ModelFileError(.database, path: path, "\(error)")
        }
        guard let blob, !blob.isEmpty else { throw ModelFileError(.noModelCache, path: path, "Z_MODELCACHE.Z_CONTENT is empty") }
        return try decodeModelCache(blob, path: path, cache: .standard)
    }

    /// Decodes the bytes of a `Z_MODELCACHE.Z_CONTENT` (a DEFLATE-compressed keyed archive);
    /// `path` names the store in errors.
    /// `cache` holds models decoded in earlier runs (`DecodedModelCache`).
    public static func decodeModelCache(_ blob: Data, path: String) throws -> CoreDataModel {
        try decodeModelCache(blob, path: path, cache: DecodedModelCache(folder: nil))
    }

    static func decodeModelCache(_ blob: Data, path: String, cache: DecodedModelCache) throws -> CoreDataModel {
        let bytes = [UInt8](blob)
        if let kept = cache.model(for: bytes) { return kept }
        let archive = try Inflate.inflate(bytes, path: path)
        let model = try decodeArchive(Data(archive), path: path + " (Z_MODELCACHE)")
        cache.keep(model, for: bytes)
        return model
    }

    /// The name to open a store by so that reading it leaves the file system as it was.
    /// Core Data stores are in WAL mode, and several ship without their `-wal` (checkpointed
    /// and removed): a read-only connection would still leave an empty `-wal` and a `-shm`
    /// beside them. With no `-wal` there is nothing to read from one, so the file is opened
    /// immutable (no locks, no side files); likewise in a folder that may not be written.
    /// With a `-wal`, a plain read-only connection reads it (SQLite may add a `-shm`, and
    /// never writes the store or the `-wal`).
    static func storeOpeningPath(_ path: String) -> String {
        let folder = SQLiteEngine.folder(of: path)
        let hasLog = FileManager.default.fileExists(atPath: path + "-wal")
        guard !hasLog || !FileManager.default.isWritableFile(atPath: folder),
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
        else { return path }
        return "file:\(encoded)?immutable=1"
    }

    /// Opens the store at `path` read-only and reads its model cache. A `-shm` (or empty
    /// `-wal`) that reading a store with a `-wal` made is removed when done, as the store's
    /// own read-only open does (`Sidecars`), so `model("store.sqlite")` leaves the folder as
    /// it found it.
    public static func fromStore(atPath path: String) throws -> CoreDataModel {
        guard FileManager.default.fileExists(atPath: path) else { throw ModelFileError(.missingFile, path: path, "") }
        var configuration = Configuration.hardened()
        configuration.readonly = true
        let openingPath = storeOpeningPath(path)
        let sidecars = openingPath == path ? Sidecars(database: path) : nil
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: openingPath, configuration: configuration)
        } catch {
            sidecars?.closed()
            throw ModelFileError(.database, path: path, "\(error)")
        }
        defer {
            try? queue.close()
            sidecars?.closed()
        }
        do {
            return try queue.read { db in try fromModelCache(db, path: path) }
        } catch let error as ModelFileError {
            throw error
        } catch {
            throw ModelFileError(.database, path: path, "\(error)")
        }
    }
}
