/// The names a foreign key of a file Quarry did not create gets, as the usual conventions
/// read them: `ArtistId`, `artist_id`, `artistID` -> `artist`; `SupportRepId` ->
/// `supportRep`; `ReportsTo` -> `reportsTo`. Inverses read naturally: `Artist.albums`,
/// `Employee.customers`, and a self-reference named `...To` gives the stem
/// (`Employee.reports`). Pure functions of the names; the context decides what is free.
package enum ForeignNaming {
    /// A name is free when it is none of an entity's keys (nor, for the inverse of a
    /// self-reference, the relationship's own name).
    package typealias IsFree = (String) -> Bool

    /// The to-one relationship of foreign key `column` to `destination`: the column read
    /// as a relationship name (`author_id` -> `author`), unless that is the column's own
    /// name (in any case); else, where the column names the destination, its name in the
    /// singular (`tag_name` to `tags` -> `tag`; nycflights13's `carrier` to
    /// `airlines.carrier` -> `airline`), except for a self-reference, which that would not
    /// tell from the object itself; else the column's words followed by the destination's name in the singular, in the
    /// column's own style (`ReportsTo` -> `reportsToEmployee`, `reports_to` ->
    /// `reports_to_employee`, `mgr` -> `mgr_emp`), never doubling a word (a column
    /// `label` to `label`); else the column's stem followed by `_rel` (then `_` until
    /// free). A column in capitals only is named as in lower case (`L_ORDERKEY` to
    /// `ORDERS` -> `order`), as PostgreSQL folds the same DDL. `former`: the rule before
    /// issue 60 (`l_orderkey_order`, `tag_name_tag`, `actor_actor`,
    /// `history_item_history_item`), whose names are kept as other names.
    package static func relationshipName(
        column: String, destination: String, parentColumn: String? = nil, selfReference: Bool = false, former: Bool = false,
        isFree: IsFree
    ) -> String {
        // A column in capitals only (`L_ORDERKEY`, `DEPTNO`, as TPC-H's and Oracle's
        // samples write them) is named as its twin in lower case, so one script of DDL
        // names its relationships alike in a SQLite file and in PostgreSQL, which folds
        // unquoted names to lower case (`order`, not `l_ORDERKEYORDER`).
        if column.contains(where: \.isUppercase), !column.contains(where: \.isLowercase) {
            return relationshipName(
                column: column.lowercased(), destination: destination, parentColumn: parentColumn?.lowercased(),
                selfReference: selfReference, former: former, isFree: isFree)
        }
        let derived = relationshipStem(column)
        let parent = singular(lowerCamel(destination))
        // A to-one is singular, as Core Data names one: a column naming its target in the
        // plural (`customers_id`, or `customers` itself, to `customers`) gives `customer`.
        // The plural stays an other name (`former`).
        if !former, let single = singularNaming(derived, parent), single.lowercased() != column.lowercased(), isFree(single) { return single }
        if derived.lowercased() != column.lowercased(), isFree(derived) { return derived }
        let snake = !column.contains(where: \.isUppercase)
        let qualified = snake ? derived + "_" + parent.lowercased() : derived + capitalized(singular(identifier(destination)))
        if former {
            // Before issue 60: the parent only for a column named as the key it references
            // (`customerNumber` -> `customer`), then the column and the parent, then the
            // destination's name as it is.
            if derived.lowercased() == column.lowercased(), column.lowercased() == parentColumn?.lowercased(), isFree(parent) { return parent }
            if derived.lowercased() == column.lowercased(), isFree(qualified) { return qualified }
            if isFree(lowerCamel(destination)) { return lowerCamel(destination) }
        } else {
            // The destination where the column names it: by the key it references
            // (`carrier`), or in its words (`tag_name`, `l_orderkey`, `customer_code`). A
            // column naming a role (`owner`, `ReportsTo`) keeps its words, as two such
            // columns to one table would otherwise be told apart by their order.
            let namesParent =
                column.lowercased() == parentColumn?.lowercased() || (words(parent).count >= 3 && words(column).contains(words(parent)))
            if !selfReference, namesParent, isFree(parent) { return parent }
            if derived.lowercased() == column.lowercased(), words(parent) != words(derived), isFree(qualified) { return qualified }
        }
        var name = derived + "_rel"
        while !isFree(name) { name += "_" }
        return name
    }

    /// `stem` in the singular when it is `parent` (the target's name in the singular) in
    /// the plural (`customers`, `order_items`); nil otherwise (a singular stem, or a plural
    /// that names something else: `news`, `status`).
    private static func singularNaming(_ stem: String, _ parent: String) -> String? {
        let single = singular(stem)
        guard single != stem, words(single) == words(parent) else { return nil }
        return single
    }

    /// A name's words in lower case, however it joins them (`history_item`,
    /// `historyItem`, `HistoryItem` -> `historyitem`).
    private static func words(_ name: String) -> String {
        name.filter { $0.isLetter || $0.isNumber }.lowercased()
    }

    /// The to-one relationship of a foreign key of several columns to `destination`, which
    /// no one column names: the words its columns begin with alike, when they are a word of
    /// three letters or more (`boss_dept`, `boss_num` -> `boss`: a self-reference reads as
    /// what it is); else the destination's name in the singular (`partsupp`,
    /// `specialOfferProduct`), as a join table's end of several columns is named; else in
    /// full; else followed by `_rel` (then `_` until free).
    static func compositeRelationshipName(columns: [String], destination: String, isFree: IsFree) -> String {
        if let stem = sharedStem(columns), isFree(stem) { return stem }
        let parent = singular(lowerCamel(destination))
        if isFree(parent) { return parent }
        if isFree(lowerCamel(destination)) { return lowerCamel(destination) }
        var name = parent + "_rel"
        while !isFree(name) { name += "_" }
        return name
    }

    /// The words every one of `columns` begins with, ending where each goes on with `_`, a
    /// space, `-` or a capital (`boss_dept`, `boss_num` -> `boss`; `OldOfferID`,
    /// `OldProductID` -> `old`), in lower camel case; nil when that has fewer than three
    /// letters (TPC-H's `l_partkey`, `l_suppkey`). Columns in capitals only are read in
    /// lower case, as for a key of one column.
    static func sharedStem(_ columns: [String]) -> String? {
        let names = columns.map { $0.contains(where: \.isLowercase) ? Array($0) : Array($0.lowercased()) }
        guard names.count > 1, var length = names.first?.count else { return nil }
        for name in names.dropFirst() {
            length = min(length, zip(names[0], name).prefix { $0 == $1 }.count)
        }
        let separators: Set<Character> = ["_", " ", "-"]
        func goesOn(_ name: [Character], at i: Int) -> Bool { i < name.count && (separators.contains(name[i]) || name[i].isUppercase) }
        while length > 0, !names.allSatisfy({ goesOn($0, at: length) }) { length -= 1 }
        var stem = String(names[0].prefix(length))
        while let last = stem.last, separators.contains(last) { stem.removeLast() }
        guard stem.filter(\.isLetter).count >= 3, stem.first?.isLetter == true else { return nil }
        return lowerCamel(stem)
    }

    /// The to-many inverse on the destination: for a self-reference named `...To` or
    /// `..._to`, the stem (`reportsTo` -> `reports`); else the source's name in the plural
    /// (`customers`); when taken (a second key from the same table), that plural followed
    /// by `As` and the relationship (`customersAsSupportRep`; `books_as_editor` for a
    /// table named in lower case); then `_` until free. `qualified`: that form at once, as
    /// a numbered key's inverse is named (`agg_exceptions_as_raw_contact1`, beside `…2`).
    static func inverseName(
        source: String, relationship: String, column: String? = nil, selfReference: Bool, qualified: Bool = false, isFree: IsFree
    ) -> String {
        if selfReference, let stem = stem(ofTo: relationship) ?? column.flatMap({ stem(ofTo: relationshipStem($0)) }), isFree(stem) { return stem }
        let plural = plural(lowerCamel(source))
        if !qualified, isFree(plural) { return plural }
        let snake = !source.contains(where: \.isUppercase)
        var name = snake ? plural + "_as_" + relationship : plural + "As" + capitalized(relationship)
        while !isFree(name) { name += "_" }
        return name
    }

    /// The many-to-many relationship a join table gives one side: the entity at the other
    /// end in the plural (`post.tags`, `Playlist.tracks`), as a foreign key's inverse is
    /// named; when taken, the other end's to-one name in the plural, which adds its
    /// column's words (`tag_name_tags`); when taken too, followed by `Via` and the join
    /// table (`tracksViaPlaylistTrack`; `tracks_via_playlist_track` for a table named in
    /// lower case; a table's name of several words as one identifier:
    /// `tracksViaPlaylistItems`, `tracks_via_playlist_items`); then `_` until free.
    /// A table joining an entity to itself names each side by its to-one, as the entity
    /// would name both alike. `former`: the rule before issue 60, which began with the
    /// to-one's name.
    package static func manyToManyName(
        otherEntity: String, otherToOne: String, joinTable: String, selfJoin: Bool = false, former: Bool = false, isFree: IsFree
    ) -> String {
        let byEntity = !former && !selfJoin
        let entity = plural(singular(lowerCamel(otherEntity)))
        if byEntity, isFree(entity) { return entity }
        let toOne = plural(otherToOne)
        if isFree(toOne) { return toOne }
        let snake = !joinTable.contains(where: \.isUppercase)
        let words = joinTable.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        let base = byEntity ? entity : toOne
        var name = snake ? base + "_via_" + words.joined(separator: "_") : base + "Via" + capitalized(identifier(joinTable))
        while !isFree(name) { name += "_" }
        return name
    }

    /// The to-one names a join table's two keys have as its entity's, by column: a SQLite
    /// file's join table is an entity, whose keys are named in the order of their columns,
    /// none as a column of the table in any case (`customer_code` ->
    /// `customer_code_customer`) nor as the other; a PostgreSQL one is no entity but its
    /// pair is named from the same names, so one schema gives one pair of names on both.
    package static func joinKeyNames(
        columns: [String], keys: [(column: String, destination: String, parentColumn: String?)], former: Bool = false
    ) -> [String: String] {
        var taken = Set(columns.map { $0.lowercased() })
        var names: [String: String] = [:]
        for key in keys.sorted(by: { $0.column < $1.column }) {
            let name = relationshipName(column: key.column, destination: key.destination, parentColumn: key.parentColumn, former: former) {
                !taken.contains($0.lowercased())
            }
            taken.insert(name.lowercased())
            names[key.column] = name
        }
        return names
    }

    /// The names Quarry gave before these conventions (the column minus `_id`, else the
    /// destination's name, else `_rel`; the inverse `<source>_set`, else
    /// `<source>_<relationship>_set`), still accepted for the relationships they named.
    /// A `relationship` the caller named keeps its name; its inverse is named from it.
    static func earlierNames(
        source: String, column: String, destination: String, relationship named: String? = nil, selfReference: Bool,
        relationshipIsFree: IsFree, inverseIsFree: IsFree
    ) -> (relationship: String, inverse: String) {
        let base = column.hasSuffix("_id") && column.count > 3 ? String(column.dropLast(3)) : column
        var relationship = named ?? base
        if named == nil, !relationshipIsFree(relationship) { relationship = destination.prefix(1).lowercased() + destination.dropFirst() }
        if named == nil, !relationshipIsFree(relationship) {
            relationship = base + "_rel"
            while !relationshipIsFree(relationship) { relationship += "_" }
        }
        var inverse = source.lowercased() + "_set"
        if !inverseIsFree(inverse) || (selfReference && inverse == relationship) { inverse = source.lowercased() + "_" + relationship + "_set" }
        while !inverseIsFree(inverse) || (selfReference && inverse == relationship) { inverse += "_" }
        return (relationship, inverse)
    }

    // MARK: Words

    /// A key column read as a relationship name: a trailing `_id` or ` id` (any case),
    /// `Id`, or `ID` after a lower-case letter or digit is dropped, and the rest written in
    /// lower camel case (`SupportRepId` -> `supportRep`, `ReportsTo` -> `reportsTo`,
    /// `Customer ID` -> `customer`).
    package static func relationshipStem(_ column: String) -> String {
        var stem = column
        if column.count > 3, column.lowercased().hasSuffix("_id") || column.lowercased().hasSuffix(" id") {
            stem = String(column.dropLast(3))
        } else if column.count > 2, column.hasSuffix("Id") {
            stem = String(column.dropLast(2))
        } else if column.count > 2, column.hasSuffix("ID"), let before = column.dropLast(2).last, before.isLowercase || before.isNumber {
            stem = String(column.dropLast(2))
        }
        return lowerCamel(stem)
    }

    /// `InvoiceLine` -> `invoiceLine`, `URLRecord` -> `urlRecord`, `ID` -> `id`;
    /// `order_item` and `artist` stay as they are. A name of several words is made one
    /// identifier, as a predicate can say it: `Order Details` -> `orderDetails`,
    /// `line-items` -> `lineItems`.
    package static func lowerCamel(_ name: String) -> String {
        let words = name.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
        if words.count > 1 || words.first.map({ $0.count != name.count }) == true {
            guard let first = words.first else { return "_" }
            let joined = lowerCamel(first) + words.dropFirst().map(capitalized).joined()
            return joined.first?.isNumber == true ? "_" + joined : joined
        }
        let chars = Array(name)
        let run = chars.prefix(while: \.isUppercase).count
        if run == 0 { return name }
        if run == chars.count { return name.lowercased() }
        // `URLRecord`: the run's last capital begins the next word.
        let lowered = run > 1 && chars[run].isLowercase ? run - 1 : run
        return String(chars[..<lowered]).lowercased() + String(chars[lowered...])
    }

    /// English plural of a name's last word: `box` -> `boxes`, `category` -> `categories`,
    /// `track` -> `tracks`, `address` -> `addresses`; a name already plural (`orders`,
    /// as tables are often named) stays as it is.
    static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("s"), !["ss", "us", "is"].contains(where: lower.hasSuffix) { return word }
        if ["s", "x", "z", "ch", "sh"].contains(where: lower.hasSuffix) { return word + "es" }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) {
            return word.dropLast() + (word.last?.isUppercase == true ? "IES" : "ies")
        }
        return word + (word.last?.isUppercase == true ? "S" : "s")
    }

    /// A name as one identifier a predicate can say, its case kept (`Order Details` ->
    /// `OrderDetails`).
    static func identifier(_ name: String) -> String {
        let words = name.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        guard words.count != 1 || words[0].count != name.count else { return name }
        return words.map { capitalized(String($0)) }.joined()
    }

    /// English singular of a name's last word, as `plural` would have made it:
    /// `Employees` -> `Employee`, `Categories` -> `Category`, `Boxes` -> `Box`.
    package static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        guard lower.count > 3, lower.hasSuffix("s"), !["ss", "us", "is", "species", "series"].contains(where: lower.hasSuffix) else {
            return word
        }
        // Words whose singular ends in "ie" (a table of movies holds a movie, not a "movy").
        // ("pies" only whole: "copies" is a copy.)
        let ieWords = ["movies", "cookies", "calories", "zombies", "rookies", "selfies", "hoodies", "newbies"]
        if ieWords.contains(where: lower.hasSuffix) || ["pies", "ties"].contains(lower) { return String(word.dropLast()) }
        if lower.hasSuffix("ies") { return word.dropLast(3) + (word.last?.isUppercase == true ? "Y" : "y") }
        if ["ses", "xes", "zes", "ches", "shes"].contains(where: lower.hasSuffix), !lower.hasSuffix("ases") { return String(word.dropLast(2)) }
        return String(word.dropLast())
    }

    /// `reportsTo` -> `reports`, `reports_to` -> `reports`; nil for other names.
    private static func stem(ofTo name: String) -> String? {
        if name.count > 3, name.hasSuffix("_to") { return String(name.dropLast(3)) }
        if name.count > 2, name.hasSuffix("To"), let before = name.dropLast(2).last, before.isLowercase { return String(name.dropLast(2)) }
        return nil
    }

    private static func capitalized(_ name: String) -> String { name.prefix(1).uppercased() + name.dropFirst() }
}
