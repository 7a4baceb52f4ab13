/// Words a person brings from SQL and other shells to `help("...")` that name no function
/// here, each with Quarry's way to do it: `help("update")` suggested `date`, the nearest
/// spelling, and `help("undo")` or `help("commit")` said only "no help" (trial 24).
extension FunctionHelp {
    static let otherWords: [String: String] = [
        "update":
            #"Item:updateall("predicate", { args }, { key = value }) sets the rows that match at once; o.key = value, then save(), changes one object (help("updateall"))"#,
        "undo": #"rollback() drops every unsaved change, o:refresh() one object's (help("rollback"))"#,
        "commit": #"save() writes every pending change in one transaction (help("save"))"#,
        "select": #"fetch() reads objects or grouped rows, and SQL typed at the prompt runs as sql() does (help("fetch"), help("sql"))"#,
        "where": #"a predicate says which objects: fetch("Item", "n > %@", 3) (help("predicate"))"#,
        "join":
            #"key paths follow relationships (fetch("Item", "owner.name == %@", "Ann")); relate() makes one between matching columns (help("relate"))"#
    ]

    /// What `help(word)` says of a word from elsewhere, or nil.
    static func otherWord(_ word: String) -> String? {
        otherWords[word.lowercased()]
    }
}
