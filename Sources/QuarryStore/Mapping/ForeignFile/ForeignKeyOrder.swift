/// The order in which SQLite (with `PRAGMA foreign_keys=ON`) carries out the ON DELETE
/// actions of the keys naming a table when one of its rows goes, and when each key is
/// checked; the keys come from the file's description (`ForeignSchemaReader.catalog`), and
/// are ordered by the rule here (`ForeignSchema+DeleteOrder`). SQLite keeps a table's
/// referencing keys in a list each new key is put at the head of, read as the schema is
/// (tables in `sqlite_master` order, a table's keys as declared): the last key declared
/// acts first. A RESTRICT key is checked at its turn, so one declared after a CASCADE key
/// of the same child refuses the parent's delete before the cascade could take the child
/// away, and one declared before it does not. A NO ACTION key is checked at the
/// statement's end; a deferred key (DEFERRABLE INITIALLY DEFERRED), but a RESTRICT one, at
/// the commit. `PRAGMA foreign_key_list` numbers a table's keys the same way (0: the last
/// declared), but does not say which are deferred: that is read off the table's SQL,
/// whose REFERENCES clauses come in declaration order (`deferredClauses`).
package enum ForeignKeyOrder {
    /// SQLite's rule, for keys whose `made` counts up as the schema declares them. It
    /// finds a key's parent by name in any case.
    package static let rule = ForeignSchema.DeleteOrder(lastMadeFirst: true, noAction: .statement, defersActions: true, namesIgnoreCase: true)

    /// For each REFERENCES clause of a CREATE TABLE statement, in order, whether it is
    /// DEFERRABLE INITIALLY DEFERRED (`NOT DEFERRABLE ...`, `DEFERRABLE` alone and
    /// `INITIALLY IMMEDIATE` are not). Words inside quotes, brackets and comments are no
    /// keywords; a clause ends at a comma or parenthesis closing its level, or at the next
    /// REFERENCES.
    package static func deferredClauses(of sql: String) -> [Bool] {
        var clauses: [Bool] = []
        var words: [String] = []
        var depth = 0
        var clauseDepth = -1
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
                        if close != "]", i + 1 < chars.count, chars[i + 1] == close {
                            i += 2
                            continue
                        }
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
