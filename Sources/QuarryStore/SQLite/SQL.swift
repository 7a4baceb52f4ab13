/// An SQL identifier, quoted so that any entity or attribute name is safe to use.
public func quoteIdentifier(_ name: String) -> String {
    // The common case over contiguous bytes, made in one allocation: the generic
    // `utf8.contains` and two concatenations cost 1,500 instructions a name, and a first
    // open of Photos.app's store quotes 3,500 names.
    let plain = name.utf8.withContiguousStorageIfAvailable { bytes -> String? in
        guard !bytes.contains(UInt8(ascii: "\"")) else { return nil }
        return String(unsafeUninitializedCapacity: bytes.count + 2) { out in
            out[0] = UInt8(ascii: "\"")
            _ = UnsafeMutableBufferPointer(rebasing: out[1...]).initialize(from: bytes)
            out[bytes.count + 1] = UInt8(ascii: "\"")
            return bytes.count + 2
        }
    }
    if let plain = plain ?? nil { return plain }
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    // By hand, not `replacingOccurrences`: Foundation's goes through NSString, whose first
    // use costs a batch run 0.2 ms.
    var quoted = "\""
    for c in name.unicodeScalars {
        if c == "\"" { quoted.unicodeScalars.append(c) }
        quoted.unicodeScalars.append(c)
    }
    quoted.unicodeScalars.append("\"")
    return quoted
}

import CQuarrySQLite
import GRDB

/// The version of the SQLite library in use.
public var sqliteVersion: String {
    (try? DatabaseQueue(configuration: .hardened()).read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? nil) ?? "unknown"
}

extension Database {
    /// Whether the file's main schema has table `name` (compared as SQLite compares
    /// names: ASCII letters case-blind). One query: GRDB's `tableExists` first reads and
    /// caches the whole schema, which costs every open 0.25 ms.
    func hasTable(_ name: String) throws -> Bool {
        // SQLite's own look-up, constant in the number of tables; `sqlite_*` names (its
        // own tables, which sqlite_master does not list) and NULs are asked below.
        if !name.utf8.contains(0), !name.lowercased().hasPrefix("sqlite_") {
            switch quarry_sqlite_has_table(sqliteConnection, name) {
            case 1: return true
            case 0: return false
            default: break
            }
        }
        return try withStatement("SELECT 1 FROM main.sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE") { statement in
            statement.bind([name.databaseValue])
            return try statement.step()
        }
    }
}
