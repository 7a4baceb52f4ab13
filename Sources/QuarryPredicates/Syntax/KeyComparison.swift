import QuarryModel

/// A key of the entity itself compared with constants (`saturday == 1`, `n IN {1, 2}`,
/// `'10/1/2020' <= polldate`): the notes that look at what a column holds before the
/// predicate runs as written read these (a column of no type holding numbers as text, a
/// text column of dates that are not ISO 8601), so each such note is one filter of them.
public struct KeyComparison: Equatable, Sendable {
    /// The key, one component.
    public let key: String
    /// The operator, written with the key on its left (`1 < n` is `n > 1`).
    public let op: ComparisonOperator
    /// The constants compared with: one, or a list's for IN and BETWEEN.
    public let values: [Value]

    /// The values when every one is a number or a boolean; nil otherwise.
    public var numbers: [Value]? {
        values.allSatisfy {
            switch $0 {
            case .integer, .real, .decimal, .bool: return true
            default: return false
            }
        } ? values : nil
    }

    /// The comparison as a note writes it, with `values` written for its constants and
    /// `key` for its key (`saturday == '1'`, `sunday IN {1, 10}`, `d BETWEEN {'a', 'b'}`).
    public func written(_ values: [String], key: String? = nil) -> String {
        let list = op == .in || op == .between
        return "\(key ?? self.key) \(op.rawValue) " + (list ? "{" + values.joined(separator: ", ") + "}" : values.first ?? "")
    }

    /// The values' texts when every one is a text; nil otherwise.
    public var texts: [String]? {
        let texts = values.compactMap { value -> String? in
            guard case .text(let text) = value else { return nil }
            return text
        }
        return texts.count == values.count ? texts : nil
    }
}

extension Predicate {
    /// Each comparison of a one-component key with a constant or a list of constants, in
    /// the order written; inside a SUBQUERY keys are a member's, so none is taken, and a
    /// string operator (`CONTAINS`) is no comparison of values.
    public var keyComparisons: [KeyComparison] {
        var found: [KeyComparison] = []
        collectKeyComparisons(into: &found)
        return found
    }

    private func collectKeyComparisons(into found: inout [KeyComparison]) {
        switch self {
        case .constant: return
        case .not(let inner): inner.collectKeyComparisons(into: &found)
        case .and(let terms), .or(let terms): for term in terms { term.collectKeyComparisons(into: &found) }
        case .comparison(let c):
            guard c.modifier == .direct, !c.op.isStringOperator else { return }
            if case .keyPath(let path) = c.lhs, path.components.count == 1, let values = c.rhs.constantValues, !values.isEmpty {
                found.append(KeyComparison(key: path.components[0], op: c.op, values: values))
            } else if case .keyPath(let path) = c.rhs, path.components.count == 1, c.op != .in, c.op != .between,
                case .constant(let value, _) = c.lhs
            {
                found.append(KeyComparison(key: path.components[0], op: c.op.swapped, values: [value]))
            }
        }
    }
}

extension Expression {
    /// The value of a constant, or the values of a list of constants; nil for anything
    /// else. The notes that read what a predicate compares with take both (`QuotedKeyHint`).
    var constantValues: [Value]? {
        switch self {
        case .constant(let value, _): return [value]
        case .aggregate(let items, _):
            var values: [Value] = []
            for case .constant(let value, _) in items { values.append(value) }
            return values.count == items.count ? values : nil
        default: return nil
        }
    }
}
