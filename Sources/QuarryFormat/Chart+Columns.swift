import Foundation

/// Where a line chart's points fall across its columns: x is a place on the axis, so x 0, 9,
/// 10, 11 and 25 are not five columns side by side (10 and 11 shared one, and drew their
/// mean). Ticks use the same places, so a label stands under its value's column.
extension Chart {
    /// How many columns the x axis from the least to the greatest of `xs` (sorted) takes:
    /// one for every step of their common spacing (1 for whole numbers 1…4, 86,400 for
    /// days in seconds) where those fit in `room`, else `room`, the finest the width says.
    /// One x alone, however many points, keeps a column a point, as before.
    static func columnCount(_ xs: [Double], room: Int) -> Int {
        guard let first = xs.first, let last = xs.last else { return 1 }
        guard last > first else { return max(1, min(xs.count, room)) }
        var distinct: [Double] = []
        for x in xs where distinct.last != x { distinct.append(x) }
        let gaps = zip(distinct, distinct.dropFirst()).map { $1 / 2 - $0 / 2 }
        var step: Double?
        if distinct.allSatisfy(isWhole), distinct.allSatisfy({ abs($0) < 9.0e15 }) {
            // Whole numbers: their greatest common spacing.
            step = Double(zip(distinct, distinct.dropFirst()).map { Int64($1) - Int64($0) }.reduce(0, gcd)) / 2
        } else if let gap = gaps.first, gaps.allSatisfy({ abs($0 - gap) <= gap * 1e-9 }) {
            step = gap
        }
        let span = last / 2 - first / 2
        if let step, step > 0 {
            let steps = (span / step).rounded()
            if steps.isFinite, steps < Double(room) { return Int(steps) + 1 }
        }
        return max(1, room)
    }

    /// The column of `x` among `columns` spread evenly from `first` (column 0) to `last`
    /// (the last column), the nearest one.
    static func column(_ x: Double, from first: Double, to last: Double, columns: Int) -> Int {
        min(columns - 1, max(0, Int((fraction(x, from: first, to: last) * Double(columns - 1)).rounded())))
    }

    static func isWhole(_ x: Double) -> Bool { x.isFinite && x == x.rounded() }

    private static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? abs(a) : gcd(b, a % b) }
}
