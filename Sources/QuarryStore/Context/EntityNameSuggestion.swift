import QuarryModel

/// The entity a mistyped name probably meant: the closest by edit distance, else the one
/// whose name is the same word in the other number (`delivery` for a table named
/// `deliveries`, `order` for `orders`), as tables are named in the plural and people
/// think of one row, else the table that ends in it as a Django model's does. The one
/// suggestion for an entity's name wherever one is named.
public func closestEntityName(to name: String, in names: [String]) -> String? {
    if let close = closestMatch(to: name, in: names) { return close }
    let one = ForeignNaming.singular(name).lowercased()
    let same = names.filter { ForeignNaming.singular($0).lowercased() == one }
    if same.count == 1 { return same[0] }
    // Django names a table by its app and its model (`orders_order`,
    // `accounts_customuser`): the model's name, or the app's plural of it, is the one
    // table whose last word it is.
    let words = Set([name.lowercased(), one])
    let model = names.filter { table in
        words.contains { table.lowercased().hasSuffix("_" + $0) && table.count > $0.count + 1 }
    }
    return model.count == 1 ? model[0] : nil
}
