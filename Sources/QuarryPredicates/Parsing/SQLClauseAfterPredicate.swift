/// A person used to SQL writes the rest of the statement after the condition
/// (`state == 'NY' LIMIT 5`, `... ORDER BY zipcode`): the parser stops at the clause's
/// word, which alone said nothing of where the clause goes (trial 21). A request takes
/// these as options of its own; the refusal names the one.
extension PredicateParser {
    /// The option of a request that does what the SQL clause starting at `token` does;
    /// nil for any other token.
    func sqlClauseRemedy(_ token: Token) -> String? {
        guard case .identifier(let word) = token.kind else { return nil }
        let option: String
        switch word.uppercased() {
        case "LIMIT": option = "limit = 5"
        case "OFFSET": option = "offset = 10"
        case "ORDER": option = #"sort = "key" ("-key" descending)"#
        case "GROUP": option = #"group = { "key" } with result = "dictionaries""#
        case "HAVING": option = #"having = "...""#
        default: return nil
        }
        return
            "SQL's \(word.uppercased()) is no part of a predicate: a request takes it as an option, fetch{ \"Entity\", predicate = \"...\", \(option) }"
    }
}
