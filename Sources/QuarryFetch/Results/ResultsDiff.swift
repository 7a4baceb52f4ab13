import QuarryModel
import QuarryStore

/// The contents of results at one moment: each section's id and the keys of its rows in
/// order (flat results are one section whose id is nil).
public struct ResultsSnapshot: Equatable {
    public var sections: [Section]
    public init(sections: [Section]) { self.sections = sections }
    public struct Section: Equatable {
        public var id: Value
        public var keys: [Int64]
        public init(id: Value, keys: [Int64]) {
            self.id = id
            self.keys = keys
        }
    }
}

/// A row's place: section and row, 0-based.
public struct RowPosition: Equatable {
    public var section: Int
    public var row: Int
}

/// The difference between two snapshots, in the contract's terms: removing every deleted
/// and moved-from row (old positions, highest first), then deleted sections, then adding
/// inserted sections (empty), then placing inserted and moved-to rows (new positions,
/// lowest first) turns the old contents into the new.
public struct ResultsChange {
    public var deleted: [(at: RowPosition, key: Int64)] = []
    public var inserted: [(at: RowPosition, key: Int64)] = []
    public var moved: [(from: RowPosition, to: RowPosition, key: Int64)] = []
    public var updated: [(at: RowPosition, key: Int64)] = []
    /// The attributes and relationships a change set, by row key, where the change says
    /// (a save, a batch change of an object in use); a row missing here says nothing.
    public var changedKeys: [Int64: Set<String>] = [:]
    public var deletedSections: [(index: Int, id: Value)] = []
    public var insertedSections: [(index: Int, id: Value)] = []
    /// The entity each deleted row of a hierarchy was when last read, by key: the row is
    /// gone, and its object, never read here, is made as what it was (`Car/7`, not the
    /// abstract `Vehicle/7`).
    public var deletedEntities: [Int64: String] = [:]

    public var isEmpty: Bool {
        deleted.isEmpty && inserted.isEmpty && moved.isEmpty && updated.isEmpty && deletedSections.isEmpty && insertedSections.isEmpty
    }

    /// No change.
    public init() {}

    /// `changed`: keys of rows whose values changed; they are reported as updated when
    /// they stay in place (moved rows carry their keys anyway).
    public init(from old: ResultsSnapshot, to new: ResultsSnapshot, changed: Set<Int64>) {
        let oldIDs = old.sections.map(\.id)
        let newIDs = new.sections.map(\.id)
        // Sections present in both and in the same relative order stay; the rest are
        // deleted and inserted, their rows moved.
        let common = newIDs.filter { oldIDs.contains($0) }
        let stableIDs = Set(longestIncreasing(common.map { oldIDs.firstIndex(of: $0)! }).map { oldIDs[$0] })
        for (i, id) in oldIDs.enumerated() where !stableIDs.contains(id) { deletedSections.append((i, id)) }
        for (i, id) in newIDs.enumerated() where !stableIDs.contains(id) { insertedSections.append((i, id)) }

        var oldPlace: [Int64: RowPosition] = [:]
        for (s, section) in old.sections.enumerated() {
            for (r, key) in section.keys.enumerated() { oldPlace[key] = RowPosition(section: s, row: r) }
        }
        var newPlace: [Int64: RowPosition] = [:]
        for (s, section) in new.sections.enumerated() {
            for (r, key) in section.keys.enumerated() { newPlace[key] = RowPosition(section: s, row: r) }
        }

        var stays = Set<Int64>()
        for (s, section) in new.sections.enumerated() where stableIDs.contains(section.id) {
            let oldSection = oldIDs.firstIndex(of: section.id)!
            let candidates = section.keys.filter { oldPlace[$0]?.section == oldSection }
            let kept = longestIncreasing(candidates.map { oldPlace[$0]!.row })
            let keptRows = Set(kept)
            for key in candidates where keptRows.contains(oldPlace[key]!.row) { stays.insert(key) }
            _ = s
        }
        for (s, section) in old.sections.enumerated() {
            for (r, key) in section.keys.enumerated() where newPlace[key] == nil { deleted.append((RowPosition(section: s, row: r), key)) }
        }
        for (s, section) in new.sections.enumerated() {
            for (r, key) in section.keys.enumerated() {
                let to = RowPosition(section: s, row: r)
                guard let from = oldPlace[key] else {
                    inserted.append((to, key))
                    continue
                }
                if stays.contains(key) {
                    if changed.contains(key) { updated.append((to, key)) }
                } else {
                    moved.append((from, to, key))
                }
            }
        }
    }
}

/// The values of a longest strictly increasing subsequence of `values`, in order: the
/// rows that can stay while the others move.
func longestIncreasing(_ values: [Int]) -> [Int] {
    longestIncreasingIndexes(values).map { values[$0] }
}

/// The indexes of a longest strictly increasing subsequence of `values`, ascending
/// (patience sorting, n log n): what a results' moves and a diff's ordered moves keep.
func longestIncreasingIndexes(_ values: [Int]) -> [Int] {
    var tails: [Int] = [] // index into values of the smallest tail of each length
    var previous = Array(repeating: -1, count: values.count)
    for (i, v) in values.enumerated() {
        var low = 0
        var high = tails.count
        while low < high {
            let mid = (low + high) / 2
            if values[tails[mid]] < v { low = mid + 1 } else { high = mid }
        }
        if low > 0 { previous[i] = tails[low - 1] }
        if low == tails.count { tails.append(i) } else { tails[low] = i }
    }
    var result: [Int] = []
    var k = tails.last ?? -1
    while k >= 0 {
        result.append(k)
        k = previous[k]
    }
    return result.reversed()
}

extension FetchResults {
    /// The current contents, by key: one grouped query for sections and one for keys.
    public func snapshot() throws -> ResultsSnapshot {
        if let merge = try merged() {
            // Sections and keys from one merge, so they line up; unsaved objects, which
            // have no key yet, are left out of both.
            let keys = pendingEntries(merge).map { entry -> Int64? in
                switch entry {
                case .key(let key): return key
                case .object(let object): return object.primaryKey
                }
            }
            guard isSectioned else { return ResultsSnapshot(sections: [.init(id: .null, keys: keys.compactMap { $0 })]) }
            return ResultsSnapshot(
                sections: try pendingSections().map { info in
                    .init(id: info.id, keys: keys[min(info.start, keys.count)..<min(info.start + info.count, keys.count)].compactMap { $0 })
                })
        }
        let keys = try currentKeys()
        guard isSectioned else { return ResultsSnapshot(sections: [.init(id: .null, keys: keys)]) }
        return ResultsSnapshot(
            sections: try sections().map { info in
                .init(id: info.id, keys: Array(keys[min(info.start, keys.count)..<min(info.start + info.count, keys.count)]))
            })
    }
}
