import QuarryModel
import QuarryPredicates
import QuarryStore

/// How a property, a group or a dictionary sort reads a key as a person writes it there.
///
/// A key path whose names hold spaces (`trainer.Home Town`, a column another program
/// named) is read whole, as a sort key is and as Tab inserts it: the format grammar reads
/// such a key only as `%K`, and a property takes no arguments. A quoted name
/// (`'"Type I"'`) is a string constant in that grammar: grouped by, it put every row in one
/// group; selected, it printed its own text on every row. Where the text names a key, or
/// nearly does, or stands as a group, it is refused saying how the key is written.
extension ResultColumn {
    /// The key path `text` names when its names hold spaces and every one resolves on
    /// `entity` (a to-one, then a key; a date's part last); nil otherwise, and for text
    /// the grammar reads (`a + b`, `Type I` alone is an attribute already).
    static func spacedKeyPath(_ text: String, entity: EntityDescription, context: ObjectContext) -> Expression? {
        text.contains(where: \.isWhitespace) ? keyPath(text, entity: entity, context: context) : nil
    }

    /// Refuses `text` when it reads as a key path with spaces (names, dots and spaces
    /// alone) that names no key: the grammar's own words for it were "unexpected 'Twn'
    /// after a complete expression". Names the key path it nearly is, when there is one.
    static func refuseUnknownSpacedKeyPath(_ text: String, entity: EntityDescription, context: ObjectContext, option: String) throws {
        guard text.contains(where: \.isWhitespace), text.first?.isLetter == true,
            text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == " " })
        else { return }
        // A key that is there, with a part it has not (`release date.year` on text): the
        // predicate's own refusal, which says what would read it (a `format()`), where an
        // unknown key suggested the key itself.
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if components.count > 1, entity.attribute(named: components[0]) != nil {
            do { _ = try BoundExpression(.keyPath(KeyPath(components, column: 1)), entity: entity, context: context) } catch var error
                as QuarryPredicates.PredicateError where error.kind != .unknownKey
            {
                error.column = nil
                throw error.given(as: option)
            }
        }
        var candidates = entity.attributeNames
        for relationship in entity.relationships where !relationship.isToMany {
            guard let destination = try? context.entity(named: relationship.destination) else { continue }
            candidates += destination.attributeNames.map { relationship.name + "." + $0 }
        }
        throw FetchError.unknownKey(option: option, key: text, entity: entity.name, suggestion: closestMatch(to: text, in: candidates))
    }

    /// `text` as a key path of `entity` when every name of it resolves; nil otherwise.
    private static func keyPath(_ text: String, entity: EntityDescription, context: ObjectContext) -> Expression? {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard components.allSatisfy({ !$0.isEmpty && $0.first?.isWhitespace == false && $0.last?.isWhitespace == false }) else {
            return nil
        }
        let expression = Expression.keyPath(KeyPath(components, column: 1))
        guard (try? BoundExpression(expression, entity: entity, context: context)) != nil else { return nil }
        return expression
    }

    /// Refuses a constant where `option` reads it as a key: any constant in `group` (it
    /// makes one group of every row), and elsewhere a string that names a key of `entity`,
    /// or nearly does (`"Type I"`, quoted, for `Type I`).
    static func refuseConstant(_ expression: Expression, written text: String, entity: EntityDescription, context: ObjectContext, option: String)
        throws
    {
        guard case .constant(let value, _) = expression else { return }
        var meant: String?
        if case .text(let name) = value {
            let names = entity.attributeNames + entity.relationships.map(\.name)
            meant = keyPath(name, entity: entity, context: context) != nil ? name : closestMatch(to: name, in: names)
        }
        guard option == "group" || meant != nil else { return }
        let what = value.isText ? "a string constant" : "a constant"
        let effect = option == "group" ? "which puts every row in one group" : "the same text on every row"
        let key = meant ?? entity.attributeNames.first ?? "key"
        let lua = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let form = option == "group" ? "group = { \"\(lua)\" }" : option == "sort" ? "sort = \"\(lua)\"" : "properties = { \"\(lua)\" }"
        let how =
            meant != nil
            ? "the key \(key) is written without quotes inside the string, even with a space: \(form)"
            : "group by a key, as \(form)"
        throw FetchError.badOption(option: option, reason: "'\(text)' is \(what), not a key (\(effect)); \(how)")
    }
}

extension Value {
    fileprivate var isText: Bool {
        if case .text = self { return true }
        return false
    }
}
