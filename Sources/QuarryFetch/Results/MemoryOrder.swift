import QuarryModel
import QuarryPredicates
import QuarryStore

/// A request's ORDER BY done in memory, for results with unsaved changes and for observed
/// results updated without a query. It must order rows exactly as the SQL does: text
/// folded as the SQL folds it, values compared as SQLite compares them, NULL first when
/// ascending, and the primary key last, in the direction of the last sort key.
struct MemoryOrder {
    let sort: [SortDescriptor]
    /// The sort keys whose values are an enum's labels, ordered by the labels' order as
    /// the SQL orders them (`SQLDialect.ordered`), not as text and not folded.
    let enumerations: [String: EnumLabels]

    init(sort: [SortDescriptor], enumerations: [String: EnumLabels] = [:]) {
        self.sort = sort
        self.enumerations = enumerations
    }

    /// The order of `compiled`'s sort.
    init(_ compiled: CompiledRequest) {
        self.init(sort: compiled.sort, enumerations: compiled.sortEnumerations)
    }

    /// What the sort compares for `raw`, a value of `descriptor`'s key.
    func sortValue(_ raw: Value, _ descriptor: SortDescriptor) -> Value {
        if descriptor.comparison != .binary, enumerations[descriptor.key] == nil, case .text(let s) = raw {
            return .text(descriptor.folded(s))
        }
        return raw
    }

    /// Negative, zero or positive, by the sort values alone.
    func compare(_ a: [Value], _ b: [Value]) -> Int {
        for (i, descriptor) in sort.enumerated() {
            let x = a[i]
            let y = b[i]
            let order: Int
            switch (x.isNull, y.isNull) {
            case (true, true): order = 0
            case (true, false): order = -1
            case (false, true): order = 1
            default:
                if let enumeration = enumerations[descriptor.key] {
                    order = SQLOrdering.compare(enumeration.orderValue(x), enumeration.orderValue(y)) ?? 0
                } else {
                    order = SQLOrdering.compare(x, y) ?? 0
                }
            }
            if order != 0 { return descriptor.ascending ? order : -order }
        }
        return 0
    }

    /// The tie-break: keys ascend unless the last sort key descends.
    var keysAscending: Bool { sort.last?.ascending ?? true }

    /// True when the row with values `a` and key `aKey` comes before the other.
    func precedes(_ a: [Value], _ aKey: Int64, _ b: [Value], _ bKey: Int64) -> Bool {
        let order = compare(a, b)
        if order != 0 { return order < 0 }
        return keysAscending ? aKey < bKey : aKey > bKey
    }

    /// What breaks a tie for an object with or without a key: an unsaved object gets its
    /// key at save, above every saved row's and in the order the objects were inserted, so
    /// it ties as that key will (after equal saved rows ascending, before them descending).
    struct Tie: Comparable {
        let unsaved: Bool
        let key: Int64

        init(_ object: ManagedObject) {
            unsaved = object.primaryKey == nil
            key = object.primaryKey ?? object.identityKey
        }

        init(key: Int64) {
            unsaved = false
            self.key = key
        }

        static func < (a: Tie, b: Tie) -> Bool { a.unsaved != b.unsaved ? !a.unsaved : a.key < b.key }
    }

    /// The same for ties that may be unsaved objects.
    func precedes(_ a: [Value], _ aTie: Tie, _ b: [Value], _ bTie: Tie) -> Bool {
        let order = compare(a, b)
        if order != 0 { return order < 0 }
        return keysAscending ? aTie < bTie : bTie < aTie
    }
}
