/// The keys of a result's rows in order. A table's rows taken in key order without gaps
/// (a table imported and not deleted from) are just `low...high`: kept as the range, so a
/// loop over ten million rows holds two numbers rather than an 80 MB array of keys.
enum OrderedKeys {
    case dense(ClosedRange<Int64>)
    case listed([Int64])

    static let empty = OrderedKeys.listed([])

    var count: Int {
        switch self {
        case .dense(let range): return range.count
        case .listed(let keys): return keys.count
        }
    }

    /// Keys `start..<start+count` (clamped to the end), as an array for one batch.
    func slice(from start: Int, count: Int) -> [Int64] {
        let start = max(0, min(self.count, start))
        let end = min(self.count, start + max(0, count))
        switch self {
        case .dense(let range):
            guard start < end else { return [] }
            let first = range.lowerBound + Int64(start)
            return Array(first...(first + Int64(end - start - 1)))
        case .listed(let keys): return Array(keys[start..<end])
        }
    }

    /// Every key (an array even when dense: for observers and diffs, which need them all).
    var all: [Int64] {
        switch self {
        case .dense(let range): return Array(range)
        case .listed(let keys): return keys
        }
    }
}

extension OrderedKeys {
    /// The key at `position` (0-based, within `count`).
    func key(at position: Int) -> Int64 {
        switch self {
        case .dense(let range): return range.lowerBound + Int64(position)
        case .listed(let keys): return keys[position]
        }
    }
}
