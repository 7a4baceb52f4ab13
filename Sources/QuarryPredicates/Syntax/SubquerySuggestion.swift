import QuarryModel

/// `ANY chats.handles.id == 'x'` ranges over two to-many relationships at once, which
/// Quarry refuses as Core Data's store does; the form that works is a SUBQUERY over the
/// first whose predicate ranges over the second. The refusal gives that form with the
/// person's own key path and comparison, so it can be pasted back as it is.
extension Comparison {
    /// The SUBQUERY form of this quantified comparison whose key path crosses the to-many
    /// `prefix` (its last step) and then another in `rest`:
    /// `SUBQUERY(chats, $c, ANY $c.handles.id == 'x').@count > 0` for ANY (and SOME),
    /// `... == 0` for NONE, and for ALL none that fails:
    /// `SUBQUERY(chats, $c, NOT ALL $c.handles.id == 'x').@count == 0`.
    func subqueryForm(through prefix: [String], rest: [String], column: Int) -> String {
        let variable = prefix.last.flatMap { $0.first(where: \.isLetter) }.map { String($0).lowercased() } ?? "x"
        var inner = self
        inner.lhs = .keyPath(KeyPath(rest, column: column))
        inner.modifier = modifier == .all ? .all : .any
        let predicate: Predicate = modifier == .all ? .not(.comparison(inner)) : .comparison(inner)
        let count = Expression.subqueryCount(collection: KeyPath(prefix, column: column), variable: variable, predicate: predicate, column: column)
        let some = modifier == .any || modifier == .some
        let whole = Predicate.comparison(
            Comparison(lhs: count, op: some ? .greater : .equal, rhs: .constant(.integer(0), column: column)))
        return whole.suggestionText
    }
}
