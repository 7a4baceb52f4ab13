import QuarryModel
import QuarryStore

extension ReadOnlyQuery {
    /// The name meant where the engine found none (`directors` → `director`): a table
    /// entities are read from, as `sql()` names it (`EntityStorage.nameInSQL`), or a column
    /// of the tables the statement names (of every entity when it names none of them),
    /// its qualifier kept (`d.nme` → `d.name`). Nil when nothing is close.
    func suggestion(for unknown: UnknownSQLName, in context: ObjectContext) -> String? {
        let tables = context.entities.map { ($0, context.mapped($0).nameInSQL) }
        switch unknown {
        case .table(let name):
            return closestMatch(to: name, in: tables.map(\.1))
        case .column(let written):
            let dot = written.lastIndex(of: ".")
            let qualifier = dot.map { String(written[...$0]) } ?? ""
            let name = dot.map { String(written[written.index(after: $0)...]) } ?? written
            let words = Set(Self.identifierWords(sql))
            let named = tables.filter { words.contains($0.1.lowercased()) }.map(\.0)
            var columns: [String] = []
            for entity in named.isEmpty ? tables.map(\.0) : named {
                for attribute in entity.attributeNames where !columns.contains(attribute) { columns.append(attribute) }
            }
            return closestMatch(to: name, in: columns).map { qualifier + $0 }
        }
    }

    /// The statement's words that may name a table, lowercased (quotes taken off).
    static func identifierWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = ""
        for c in text.lowercased() {
            if c.isLetter || c.isNumber || c == "_" {
                word.append(c)
            } else if !word.isEmpty {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
