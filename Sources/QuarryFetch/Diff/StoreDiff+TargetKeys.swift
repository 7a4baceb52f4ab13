import QuarryModel
import QuarryStore

extension StoreDiff {
    /// A to-one's target as the key its entity is matched by (`by = { Person = "code" }`)
    /// rather than the row key its column holds, which two stores made apart number
    /// apart: the target's key attribute read from its row, as the general path reads
    /// attributes. Nil where that cannot be read so: a key of several attributes, or a
    /// column that need not hold the target's row key (another program's foreign key may
    /// name any column); only Quarry's and Core Data's to-ones hold it always.
    static func targetKey(
        _ context: ObjectContext, _ entity: EntityDescription, _ r: RelationshipDescription, key: [String], qualifier: String?
    ) -> String? {
        guard key.count == 1, let relationship = entity.relationship(named: r.name),
            let target = try? context.entity(named: r.destination), target.attribute(named: key[0]) != nil
        else { return nil }
        let targetStorage = context.mapped(target)
        switch targetStorage.layout {
        case .quarry, .coreData: break
        case .foreignTable, .foreignView: return nil
        }
        let column = (qualifier.map { quoteIdentifier($0) + "." } ?? "") + context.mapped(entity).column(relationship.keyColumn)
        let alias = "diff_target"
        let value = DiffIdentity.expression(targetStorage, key[0], of: target, qualifier: alias)
        return
            "(SELECT \(value) FROM \(targetStorage.table) AS \(quoteIdentifier(alias)) WHERE \(quoteIdentifier(alias)).\(targetStorage.key) = \(column))"
    }
}
