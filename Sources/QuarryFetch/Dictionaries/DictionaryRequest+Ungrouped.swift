import QuarryModel
import QuarryPredicates
import QuarryStore

/// A grouped request's properties are its groups or aggregates over each group, as
/// NSFetchRequest requires of `propertiesToFetch` beside `propertiesToGroupBy`. SQLite
/// would give any other one the value of an arbitrary row of the group (`a | x | 2` where
/// the group holds x and y), and a to-many's `@count` that of one row rather than the
/// group's sum; so each is refused, naming the property and what works.
extension DictionaryRequest {
    /// Refuses the first of `properties` (as written, beside its `columns`) that is
    /// neither an aggregate nor computed from the `group` keys alone. Grouped by a to-one
    /// (`group = { "member" }`) or by the column that keeps it (`member_id`), a key path
    /// through it (`member.name`) names each group.
    static func refuseUngrouped(
        _ properties: [String], _ columns: [ResultColumn], group: [String], groups: [ResultColumn], entity: EntityDescription,
        context: ObjectContext
    ) throws {
        guard !groups.isEmpty else { return }
        var names = Set(group.map(Self.plainKey))
        for relationship in entity.relationships where !relationship.isToMany {
            switch context.storage(of: relationship, in: entity.name) {
            case .foreignKey(let column, _)? where names.contains(column): names.insert(relationship.name)
            case .compositeKey(let keys, _)? where keys.allSatisfy(names.contains): names.insert(relationship.name)
            default: break
            }
        }
        let readsGrouped = { (path: String) in
            let key = Self.plainKey(path)
            return names.contains(key) || names.contains { key.hasPrefix($0 + ".") }
        }
        for (text, column) in zip(properties, columns) where column.function == nil {
            if groups.contains(where: { $0.sql == column.sql && $0.arguments == column.arguments }) { continue }
            let body = ResultColumn.split(text).body
            if readsGrouped(body) { continue }
            // An expression of grouped keys alone (`year * 10` grouped by year), or of none
            // (a label, `'pokémon' AS kind`), is one value per group; a key path or one
            // reading any other key is not.
            if let expression = try? PredicateParser.parseExpression(body), !Self.isKeyPath(expression),
                expression.keyPaths.allSatisfy({ readsGrouped($0.string) })
            {
                continue
            }
            throw FetchError.badOption(
                option: "properties",
                reason: "'\(body)' is neither grouped nor an aggregate, so each group holds many values of it; "
                    + "add it to group, or wrap it in an aggregate, as \(body.contains("@count") ? "sum" : "max")(\(body))")
        }
    }

    private static func isKeyPath(_ expression: Expression) -> Bool {
        if case .keyPath = expression { return true }
        return false
    }

    /// A key as written without `#` and spaces around it.
    private static func plainKey(_ text: String) -> String {
        let key = trimmed(text)
        return key.hasPrefix("#") ? String(key.dropFirst()) : key
    }
}
