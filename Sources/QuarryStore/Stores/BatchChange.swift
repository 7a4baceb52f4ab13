import QuarryModel

/// What one `updateall`, `deleteall` or import wrote, for the store's history: the rows
/// by their own entity, the keys an update set, and the values a deleted row leaves behind
/// (a Core Data store's tombstones, read before the rows went).
package struct BatchChange {
    /// The rows an import inserted.
    package var inserted: [String: [Int64]] = [:]
    package var updated: [String: [Int64]] = [:]
    /// The attributes `updateall` set.
    package var updatedKeys: Set<String> = []
    package var deleted: [String: [Int64]] = [:]
    /// By entity, then key: what the store keeps of a deleted row (see `PersistentStore.keptAfterDeletion`).
    package var tombstones: [String: [Int64: [Value]]] = [:]

    /// The object IDs, by entity name then key.
    package static func ids(_ rows: [String: [Int64]]) -> [String] {
        rows.sorted { $0.key < $1.key }.flatMap { name, keys in keys.map { "\(name)/\($0)" } }
    }

    /// The same rows as entity names and keys, in the same order, for a history that
    /// writes `entity/key` itself.
    package static func rows(_ rows: [String: [Int64]]) -> [(entity: String, key: Int64)] {
        rows.sorted { $0.key < $1.key }.flatMap { name, keys in keys.map { (entity: name, key: $0) } }
    }

    package init(
        inserted: [String: [Int64]] = [:], updated: [String: [Int64]] = [:], updatedKeys: Set<String> = [],
        deleted: [String: [Int64]] = [:], tombstones: [String: [Int64: [Value]]] = [:]
    ) {
        self.inserted = inserted
        self.updated = updated
        self.updatedKeys = updatedKeys
        self.deleted = deleted
        self.tombstones = tombstones
    }
}
