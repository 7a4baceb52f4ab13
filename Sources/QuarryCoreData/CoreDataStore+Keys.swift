import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

extension CoreDataStore {
    /// Core Data hands out a new row's key from its root entity's `Z_MAX`. At 2^63-1 no
    /// key is left: SQLite would turn `Z_MAX + 1` into a real number and refuse the row
    /// with only "datatype mismatch". The save is refused first, naming the entity and
    /// `Z_MAX`, with nothing written (as a `Z_MAX` that is not an integer, or is negative, is:
    /// new rows would take keys no row of Core Data's has).
    func refuseExhaustedKeys(in session: StoreSession) throws {
        let store = self
        var wanted: [Int64: Int64] = [:]
        for object in session.pendingChanges.inserted {
            guard let mapped = store.mapped(object.entity.name) else { continue }
            wanted[mapped.rootCode, default: 0] += 1
        }
        guard !wanted.isEmpty else { return }
        let maxima = try session.connection.read { db in
            try wanted.keys.sorted().map { code in
                (code, try DatabaseValue.fetchOne(db, sql: "SELECT Z_MAX FROM main.Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [code]) ?? .null)
            }
        }
        for (code, value) in maxima {
            let name = store.entities.first { $0.code == code }?.entity.name ?? "entity \(code)"
            try Self.checkKeysLeft(value, count: wanted[code] ?? 0, entity: name)
        }
    }

    /// Whether `Z_MAX` (NULL counts as 0, as Core Data's first key is 1) leaves `count`
    /// more keys for `entity`; else the refusal that names both.
    static func checkKeysLeft(_ value: DatabaseValue, count: Int64, entity: String) throws {
        let refuse = { (reason: String) in
            StoreError.during(
                operation: "save", .database(message: "\(entity): no key is left for a new row (Z_PRIMARYKEY.Z_MAX \(reason)); nothing was written"))
        }
        switch value.storage {
        case .null: return
        case .int64(let last) where last < 0: throw refuse("is \(last), below Core Data's first key")
        case .int64(let last) where last <= Int64.max - count: return
        case .int64(let last): throw refuse("is \(last), the largest key SQLite has")
        default: throw refuse("is not an integer")
        }
    }
}
