import QuarryModel
import QuarryPredicates
import QuarryStore

/// Unsaved changes merged into a result's saved rows, for one save state of the context
/// (`generation`) and brought up to date change by change: the saved rows that match are
/// keys in SQL order, read once; an object with unsaved changes is taken out of its row's
/// place when it may have moved or left, and placed again, by its values in memory,
/// among the saved rows by bisection (reading their sort values by key), so neither the
/// first merge nor any later change loads the matching objects.
final class PendingMerge {
    let generation: Int
    /// The unsaved changes merged are those up to this `pendingGeneration`.
    var pendingGeneration: Int
    var keys: MergedKeys
    /// True when every row is placed in memory (see `FetchResults.readsPendingRelatedChanges`).
    let isWhole: Bool
    /// What was done for each object with changes, to undo when it changes again.
    private var tracked: [ObjectIdentifier: (removed: Int?, placed: MergedKeys.Placed?)] = [:]
    /// Base positions by key, made when first needed (a dense base needs none).
    private var positions: [Int64: Int]?
    /// Sort values of base positions read so far: bisections start at the same rows.
    private var baseValues: [Int: [Value]] = [:]
    /// The base's sections over all its rows, read when first asked.
    var baseSections: [SectionInfo]?

    init(generation: Int, pendingGeneration: Int, keys: MergedKeys, isWhole: Bool) {
        self.generation = generation
        self.pendingGeneration = pendingGeneration
        self.keys = keys
        self.isWhole = isWhole
    }

    var tracksChanges: Bool { !tracked.isEmpty }

    /// The base position of the saved row with this key, if it is one of the base's.
    private func position(of key: Int64) -> Int? {
        switch keys.base {
        case .dense(let range): return range.contains(key) ? Int(key - range.lowerBound) : nil
        case .listed(let list):
            if positions == nil {
                var map: [Int64: Int] = [:]
                map.reserveCapacity(list.count)
                for (i, k) in list.enumerated() where map[k] == nil { map[k] = i }
                positions = map
            }
            return positions?[key]
        }
    }

    /// How one object's place is worked out: which objects count, whether one matches,
    /// its sort values, and a saved row's sort values by key.
    struct Rules {
        let isOfEntity: (ManagedObject) -> Bool
        let belongs: (ManagedObject) -> Bool
        let matches: (ManagedObject) -> Bool
        let sortValues: (ManagedObject) -> [Value]
        let rowValues: (Int64) throws -> [Value]
        let order: MemoryOrder
    }

    /// Takes `object` out of where it was put before and puts it where it now goes.
    func track(_ object: ManagedObject, _ rules: Rules) throws {
        let id = ObjectIdentifier(object)
        if let previous = tracked[id] {
            if let position = previous.removed { keys.restore(position) }
            if let placed = previous.placed { keys.unplace(placed, rules.order) }
            tracked[id] = nil
        }
        guard rules.isOfEntity(object), object.hasChanges else { return }
        let alive = !object.isDeleted && object.managedObjectContext != nil
        let wanted = alive && rules.belongs(object) && rules.matches(object)
        let values = wanted ? rules.sortValues(object) : []
        var removed: Int?
        if let key = object.primaryKey, let position = position(of: key) {
            // Changed but sorting as its saved row did: it keeps that row's place.
            if wanted, rules.order.compare(values, try self.values(at: position, rules)) == 0 {
                tracked[id] = (nil, nil)
                return
            }
            keys.remove(position)
            removed = position
        }
        var placed: MergedKeys.Placed?
        if wanted {
            let tie = MemoryOrder.Tie(object)
            let entry = MergedKeys.Placed(object: object, gap: try gap(values, tie, rules), values: values, tie: tie)
            keys.place(entry, rules.order)
            placed = entry
        }
        tracked[id] = (removed, placed)
    }

    /// The number of base rows that come before an object with these sort values.
    private func gap(_ values: [Value], _ tie: MemoryOrder.Tie, _ rules: Rules) throws -> Int {
        var low = 0
        var high = keys.base.count
        while low < high {
            let mid = (low + high) / 2
            let row = MemoryOrder.Tie(key: keys.base.key(at: mid))
            if rules.order.precedes(try self.values(at: mid, rules), row, values, tie) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func values(at position: Int, _ rules: Rules) throws -> [Value] {
        if rules.order.sort.isEmpty { return [] }
        if let known = baseValues[position] { return known }
        let read = try rules.rowValues(keys.base.key(at: position))
        baseValues[position] = read
        return read
    }

    /// An object placed in memory; nil when it is a saved row.
    func entry(at index: Int) -> PendingEntry? { keys.entry(at: index) }
}
