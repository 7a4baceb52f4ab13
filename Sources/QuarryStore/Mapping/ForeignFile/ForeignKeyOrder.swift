import GRDB

/// The order in which SQLite (with `PRAGMA foreign_keys=ON`) carries out the ON DELETE
/// actions of the keys naming a table when one of its rows goes, and when each key is
/// checked. SQLite keeps a table's referencing keys in a list each new key is put at the
/// head of, read as the schema is (tables in `sqlite_master` order, a table's keys as
/// declared): the last key declared acts first. A RESTRICT key is checked at its turn,
/// so one declared after a CASCADE key of the same child refuses the parent's delete
/// before the cascade could take the child away, and one declared before it does not.
/// `PRAGMA foreign_key_list` numbers a table's keys the same way (0: the last declared),
/// but does not say which are DEFERRABLE INITIALLY DEFERRED: that is read off the table's
/// SQL, whose REFERENCES clauses come in declaration order.
enum ForeignKeyOrder {
    /// Every table's referencing keys, by the parent's name in lower case (SQLite finds
    /// them by name in any case), in the order their actions run.
    static func referencingKeys(in db: Database) throws -> [String: [EntityStorage.ReferencingKey]] {
        var declared: [(parent: String, key: EntityStorage.ReferencingKey)] = []
        let tables = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
        for table in tables {
            guard let name: String = table["name"] else { continue }
            let rows = (try? Row.fetchAll(db, sql: "PRAGMA main.foreign_key_list(\(quoteIdentifier(name)))")) ?? []
            let byID = Dictionary(grouping: rows, by: { ($0["id"] as Int?) ?? 0 })
            let deferred = deferredClauses(of: (table["sql"] as String?) ?? "")
            // Ids count down from the last declared key.
            for (index, id) in byID.keys.sorted(by: >).enumerated() {
                guard let key = byID[id], key.count == 1, let parent: String = key[0]["table"], let column: String = key[0]["from"] else { continue }
                let action = ((key[0]["on_delete"] as String?) ?? "NO ACTION").uppercased()
                let isDeferred = deferred.count == byID.count && deferred[index]
                let check: EntityStorage.ReferencingKey.Check = action == "RESTRICT" ? .restrict : isDeferred ? .commit : .statement
                declared.append((parent.lowercased(), EntityStorage.ReferencingKey(child: name, column: column, check: check)))
            }
        }
        return Dictionary(grouping: declared.reversed(), by: \.parent).mapValues { $0.map(\.key) }
    }

    /// For each REFERENCES clause of a CREATE TABLE statement, in order, whether it is
    /// DEFERRABLE INITIALLY DEFERRED (`NOT DEFERRABLE ...`, `DEFERRABLE` alone and
    /// `INITIALLY IMMEDIATE` are not). Words inside quotes, brackets and comments are no
    /// keywords; a clause ends at a comma or parenthesis closing its level, or at the next
    /// REFERENCES.
    static func deferredClauses(of sql: String) -> [Bool] {
        var clauses: [Bool] = []
        var words: [String] = []
        var depth = 0, clauseDepth = -1
        func endClause() {
            guard clauseDepth >= 0 else { return }
            var deferred = false
            for (i, word) in words.enumerated() where word == "DEFERRABLE" {
                let negated = i > 0 && words[i - 1] == "NOT"
                let initially = words.count > i + 2 && words[i + 1] == "INITIALLY" ? words[i + 2] : nil
                deferred = !negated && initially == "DEFERRED"
            }
            clauses.append(deferred)
            words = []
            clauseDepth = -1
        }
        let chars = Array(sql.unicodeScalars)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "'", "\"", "`", "[":
                let close: Unicode.Scalar = c == "[" ? "]" : c
                i += 1
                while i < chars.count {
                    if chars[i] == close {
                        // A doubled quote is one quote inside.
                        if close != "]", i + 1 < chars.count, chars[i + 1] == close { i += 2; continue }
                        break
                    }
                    i += 1
                }
                i += 1
                if clauseDepth >= 0 { words.append("") }
            case "-" where i + 1 < chars.count && chars[i + 1] == "-":
                while i < chars.count, chars[i] != "\n" { i += 1 }
            case "/" where i + 1 < chars.count && chars[i + 1] == "*":
                i += 2
                while i + 1 < chars.count, !(chars[i] == "*" && chars[i + 1] == "/") { i += 1 }
                i += 2
            case "(":
                depth += 1
                i += 1
            case ")", ",":
                if clauseDepth >= 0, depth <= clauseDepth { endClause() }
                if c == ")" { depth -= 1 }
                i += 1
            default:
                if c.properties.isAlphabetic || c == "_" || ("0"..."9").contains(c) {
                    var word = ""
                    while i < chars.count, chars[i].properties.isAlphabetic || chars[i] == "_" || chars[i] == "$" || ("0"..."9").contains(chars[i]) {
                        word.unicodeScalars.append(chars[i])
                        i += 1
                    }
                    word = word.uppercased()
                    if word == "REFERENCES" {
                        endClause()
                        clauseDepth = depth
                    } else if clauseDepth >= 0 {
                        words.append(word)
                    }
                } else {
                    i += 1
                }
            }
        }
        endClause()
        return clauses
    }
}
