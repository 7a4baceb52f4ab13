import QuarryModel
import QuarryPredicates
import QuarryStore

/// One row of results that include unsaved changes: a saved row by key, or an object
/// placed in memory (changed, or inserted and without a key yet).
enum PendingEntry {
    case key(Int64)
    case object(ManagedObject)
}

/// Results with unsaved changes as the saved rows' keys in SQL order (`base`), less the
/// positions of rows whose objects moved or left (`removed`), plus the objects placed in
/// memory (`placed`), each in the gap before a base position. Nothing is copied per row:
/// finding row `i` is two bisections, and placing or removing one object moves only the
/// other changes, so a change costs work in proportion to the changes, not the rows.
struct MergedKeys {
    /// An object placed among the saved rows: before base position `gap`, after the
    /// placed objects that precede it in the sort (`values`, then `tie`).
    struct Placed {
        let object: ManagedObject
        let gap: Int
        let values: [Value]
        let tie: MemoryOrder.Tie
    }

    let base: OrderedKeys
    /// Base positions left out, ascending.
    private(set) var removed: [Int] = []
    /// Placed objects in result order (by gap, then the sort).
    private(set) var placed: [Placed] = []

    init(base: OrderedKeys) { self.base = base }

    /// Every row placed in memory, already in order.
    init(ordered: [Placed]) {
        base = .empty
        placed = ordered
    }

    var count: Int { base.count - removed.count + placed.count }

    /// How many removed positions are below `position`.
    private func removedBefore(_ position: Int) -> Int {
        var low = 0
        var high = removed.count
        while low < high {
            let mid = (low + high) / 2
            if removed[mid] < position { low = mid + 1 } else { high = mid }
        }
        return low
    }

    mutating func remove(_ position: Int) {
        let at = removedBefore(position)
        if at < removed.count, removed[at] == position { return }
        removed.insert(position, at: at)
    }

    mutating func restore(_ position: Int) {
        let at = removedBefore(position)
        if at < removed.count, removed[at] == position { removed.remove(at: at) }
    }

    mutating func place(_ entry: Placed, _ order: MemoryOrder) {
        var low = 0
        var high = placed.count
        while low < high {
            let mid = (low + high) / 2
            if Self.precedes(placed[mid], entry, order) { low = mid + 1 } else { high = mid }
        }
        placed.insert(entry, at: low)
    }

    mutating func unplace(_ entry: Placed, _ order: MemoryOrder) {
        // Bisect to the first entry not before it, then look along the equal ones.
        var low = 0
        var high = placed.count
        while low < high {
            let mid = (low + high) / 2
            if Self.precedes(placed[mid], entry, order) { low = mid + 1 } else { high = mid }
        }
        if let at = placed[low...].firstIndex(where: { $0.object === entry.object }) {
            placed.remove(at: at)
        } else if let at = placed.firstIndex(where: { $0.object === entry.object }) {
            placed.remove(at: at)
        }
    }

    private static func precedes(_ a: Placed, _ b: Placed, _ order: MemoryOrder) -> Bool {
        if a.gap != b.gap { return a.gap < b.gap }
        return order.precedes(a.values, a.tie, b.values, b.tie)
    }

    /// Where placed entry `j` is in the merged rows.
    private func mergedIndex(ofPlaced j: Int) -> Int {
        let gap = placed[j].gap
        return gap - removedBefore(gap) + j
    }

    /// Row `index` of the merged rows, or nil past the end.
    func entry(at index: Int) -> PendingEntry? {
        guard index >= 0, index < count else { return nil }
        // The placed entries before `index` (their merged indexes rise with j).
        var low = 0
        var high = placed.count
        while low < high {
            let mid = (low + high) / 2
            if mergedIndex(ofPlaced: mid) < index { low = mid + 1 } else { high = mid }
        }
        if low < placed.count, mergedIndex(ofPlaced: low) == index { return .object(placed[low].object) }
        // The `rank`-th base position not removed: `removed[t] - t` rises with t, and
        // counts the removed positions below it.
        let rank = index - low
        var a = 0
        var b = removed.count
        while a < b {
            let mid = (a + b) / 2
            if removed[mid] - mid <= rank { a = mid + 1 } else { b = mid }
        }
        let position = rank + a
        return position < base.count ? .key(base.key(at: position)) : nil
    }

    /// A stretch of the merged rows: base positions (none removed), or one placed object.
    enum Piece {
        case base(Range<Int>)
        case placed(Placed)
    }

    /// The merged rows in order, as stretches of base positions and placed objects.
    func forEachPiece(_ body: (Piece) throws -> Void) rethrows {
        var position = 0
        var r = 0
        func baseUpTo(_ end: Int) throws {
            while position < end {
                while r < removed.count, removed[r] < position { r += 1 }
                if r < removed.count, removed[r] < end {
                    if removed[r] > position { try body(.base(position..<removed[r])) }
                    position = removed[r] + 1
                    r += 1
                } else {
                    try body(.base(position..<end))
                    position = end
                }
            }
        }
        for entry in placed {
            try baseUpTo(min(entry.gap, base.count))
            try body(.placed(entry))
        }
        try baseUpTo(base.count)
    }
}
