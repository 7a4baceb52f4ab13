import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryPredicates

/// After `relate()`: the rows whose columns hold a value that no row of the destination
/// has (a delivery's `match_no` naming no match), counted in SQL as `match == nil AND
/// match_no != nil` counts them, so a person knows the relationship reads nil there
/// before a fetch through it surprises them. Nothing is said when every row points home.
extension QuarryRuntime {
    func noteRowsPointingNowhere(
        _ relationship: RelationshipDescription, of source: String, columns: [String], to destination: String, keys: [String]
    ) {
        guard !relationship.isToMany, !columns.isEmpty else { return }
        let format = (["%K == nil"] + columns.map { _ in "%K != nil" }).joined(separator: " AND ")
        let names = [relationship.name] + columns
        guard let predicate = try? PredicateParser.parse(format, arguments: PredicateArguments(names.map(Value.text))),
            let nowhere = try? FetchRequest(entityName: source, predicate: predicate).count(in: context), nowhere > 0,
            let total = try? FetchRequest(entityName: source).count(in: context)
        else { return }
        let place =
            columns.count == 1 && keys.count == 1
            ? "\(columns[0]) not in \(destination).\(keys[0])"
            : "(\(columns.joined(separator: ", "))) not in \(destination)(\(keys.joined(separator: ", ")))"
        writeNotice("note: \(grouped(nowhere)) of \(grouped(total)) rows of \(source) name no \(relationship.name) (\(place))")
    }
}
