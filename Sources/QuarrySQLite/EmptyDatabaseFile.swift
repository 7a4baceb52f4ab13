import Foundation

/// Whether a SQLite file holds no schema at all (no table, index, view or trigger): no
/// byte (SQLite made the file at its open and nothing was written), or one page, whose
/// `sqlite_master` b-tree is a leaf with no cell. Read from the file's own bytes (its
/// header and page 1's b-tree header, as the file format lays them out), so asking opens
/// no connection and makes no `-shm` beside a WAL file. A `-wal` beside it that holds
/// anything may hold a schema the file does not yet: then it is not empty.
package enum EmptyDatabaseFile {
    package static func holdsNothing(atPath path: String) -> Bool {
        let files = FileManager.default
        if let wal = try? files.attributesOfItem(atPath: path + "-wal")[.size] as? Int, wal > 0 { return false }
        guard let handle = FileHandle(forReadingAtPath: path), let size = try? files.attributesOfItem(atPath: path)[.size] as? Int
        else { return false }
        defer { try? handle.close() }
        if size == 0 { return true }
        guard let head = try? handle.read(upToCount: 108), head.count == 108 else { return false }
        let bytes = [UInt8](head)
        guard bytes[0..<16].elementsEqual(Array("SQLite format 3\0".utf8)) else { return false }
        // The page size, big-endian at 16 (1 stands for 65,536).
        let stored = Int(bytes[16]) << 8 | Int(bytes[17])
        let pageSize = stored == 1 ? 65_536 : stored
        // Page 1's b-tree header follows the 100-byte file header: a table leaf (13) with
        // its cell count at 103.
        let cells = Int(bytes[103]) << 8 | Int(bytes[104])
        return pageSize >= 512 && size <= pageSize && bytes[100] == 13 && cells == 0
    }
}
