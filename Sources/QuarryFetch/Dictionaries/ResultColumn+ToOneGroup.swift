import QuarryModel
import QuarryStore

/// `group = { "member" }`: a to-one named where a group goes groups by the key its row
/// holds, as `group = { "member_id" }` does, so `member.name` beside it names each group.
/// A to-many has no one value per row and is refused, as in `sort` and `section`.
extension ResultColumn {
    /// The group column of the to-one `text` names on `entity`, or nil when it names none.
    static func toOneGroup(_ text: String, entity: EntityDescription, context: ObjectContext) throws -> ResultColumn? {
        let name = text.trimmingCharacters(in: .whitespaces)
        let key = name.hasPrefix("#") ? String(name.dropFirst()) : name
        guard entity.attribute(named: key) == nil, let relationship = entity.relationship(named: key) else { return nil }
        let storage = StoreMapping.storage(of: entity, in: context)
        switch context.storage(of: relationship, in: entity.name) {
        case .foreignKey(let column, _)?:
            return ResultColumn(groupSQL: "\(storage.table).\(storage.column(column))", key: name)
        case .compositeKey(let columns, _)?:
            // Every column of the key: GROUP BY lists them.
            return ResultColumn(groupSQL: columns.map { "\(storage.table).\(storage.column($0))" }.joined(separator: ", "), key: name)
        default:
            // A to-many, or a to-one kept elsewhere: the error that names a key of values.
            throw FetchError.relationshipKey(key, option: "group", of: entity, context: context)
                ?? FetchError.unknownKey(option: "group", key: name, entity: entity.name, suggestion: nil)
        }
    }

    private init(groupSQL: String, key: String) {
        sql = groupSQL
        keys = [key]
        type = .int64
    }
}
