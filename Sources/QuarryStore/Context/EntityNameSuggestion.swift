import QuarryModel

/// The entity a mistyped name probably meant: the closest by edit distance, else the one
/// whose name is the same word in the other number (`delivery` for a table named
/// `deliveries`, `order` for `orders`), as tables are named in the plural and people
/// think of one row. The one suggestion for an entity's name wherever one is named.
public func closestEntityName(to name: String, in names: [String]) -> String? {
    if let close = closestMatch(to: name, in: names) { return close }
    let one = ForeignNaming.singular(name).lowercased()
    let same = names.filter { ForeignNaming.singular($0).lowercased() == one }
    return same.count == 1 ? same[0] : nil
}
