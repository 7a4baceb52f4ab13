/// Words a person brings from SQL, editors and other shells that name no function here,
/// each with Quarry's way to do it: said by `help("...")` (`help("update")` suggested
/// `date`, the nearest spelling, and `help("commit")` said only "no help", trial 24) and
/// by a call of one as a function (`undo()`, `sections(r, "k")`: Lua's bare "attempt to
/// call a nil value", trials 22 and 24).
extension FunctionHelp {
    static let otherWords: [String: String] = [
        "update":
            #"Item:updateall("predicate", { args }, { key = value }) sets the rows that match at once; o.key = value, then save(), changes one object (help("updateall"))"#,
        "undo": undo, "redo": undo,
        "commit": #"save() writes every pending change in one transaction, rollback() drops them (help("save"))"#,
        "select": query, "query": query, "execute": query, "exec": query,
        "sections":
            #"results are sectioned by fetch{ "Entity", section = "key" }: #r is then the number of sections, r[i] a section (.name, #sec, sec[j])"#,
        "insert": #"Item:new{ key = value } makes an object, and save() writes it (help("new"))"#,
        "where": #"a predicate says which objects: fetch("Item", "n > %@", 3) (help("predicate"))"#,
        "join":
            #"key paths follow relationships (fetch("Item", "owner.name == %@", "Ann")); relate() makes one between matching columns (help("relate"))"#
    ]

    private static let undo =
        #"there is no undo: rollback() drops the changes not yet saved (.changes lists them), o:refresh() one object's, and a saved value is put back by setting it again and saving (help("rollback"))"#
    private static let query = #"fetch() reads objects or grouped rows, and SQL typed at the prompt runs as sql() does (help("fetch"), help("sql"))"#

    /// What `help(word)` says of a word from elsewhere, or nil.
    static func otherWord(_ word: String) -> String? {
        otherWords[word.lowercased()]
    }
}
