import QuarryModel
import QuarryStore

/// A string's count, in the unit of whoever wrote it: a format string's `name.length` is
/// NSString's, in UTF-16 units (`"😀".length` is 2); a `#Predicate`'s `$0.name.count`
/// (read as `name.@count`) is Swift's, in characters (`"e\u{301}".count` is 1). SQL and
/// memory count alike through one Swift function (`ExpressionValues.apply`), or in the
/// store's own SQL where it has the unit (PostgreSQL's UTF-16 count).
extension Binder {
    func stringCount(_ path: KeyPath, _ entity: EntityDescription) throws -> BoundPredicate.Operand? {
        guard path.components.count >= 2, let last = path.components.last, last == "length" || last == "@count",
            entity.attribute(named: path.string) == nil
        else { return nil }
        let text = KeyPath(Array(path.components.dropLast()), column: path.column)
        guard let bound = try? operand(.keyPath(text), entity), bound.typeAttribute?.type == .string else { return nil }
        if case .function = bound { return nil }
        let function: BuiltinFunction = last == "length" ? .length : .characters
        // Characters (grapheme clusters) only Swift counts: a store whose SQL runs no
        // function of Quarry's (PostgreSQL) cannot, and memory must not answer alone.
        if function == .characters, let context, !context.sqlDialect.runsQuarryFunctions {
            throw PredicateError(
                .unsupported,
                "'\(text.string).count' counts the string '\(text.string)' in characters (Swift's String.count), which this store's SQL cannot count: compare its length in UTF-16 units ('\(text.string).length' in a format string) or test isEmpty",
                column: path.column)
        }
        // A UTF-16 length the store's SQL cannot say (PostgreSQL in a database that is not
        // UTF8 or has no ICU) would fall to Quarry's function, which that server lacks,
        // while memory answered: refused by name in both.
        if function == .length, let dialect = context?.sqlDialect, !dialect.runsQuarryFunctions,
            dialect.function(BuiltinFunction.length.rawValue, integer: false) == nil
        {
            throw PredicateError(
                .unsupported,
                "'\(text.string).length' counts the string '\(text.string)' in UTF-16 units, which this store's SQL cannot count (a PostgreSQL database that is not UTF8 or has no ICU): compare its length with 0 (length == 0, length > 0), which is read as the string being ''",
                column: path.column)
        }
        return .function(function, bound)
    }
}
