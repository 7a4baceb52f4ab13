/// Temporary views a store has described but not yet made, made when SQL first names
/// them. A Core Data store shows each entity as a view (`CoreDataStore`), and SQLite
/// parses a view's SQL twice in making it (70 µs for one of Photos.app's 150 columns):
/// its 85 views were a tenth of a whole `count("Asset")`, which reads one of them.
///
/// The connection asks before each statement it prepares (`StoreConnection`): the SQL's
/// identifiers, folded as SQLite folds them (ASCII only), are looked up among the views
/// not yet made. A name that appears in a string or a column name makes a view nobody
/// reads, which costs only that view; a view read under any spelling SQLite accepts is
/// made before SQLite looks for it. SQL that reads the schema itself (`sqlite_temp_master`,
/// `pragma_table_info(?)`, whose table may be a bound argument) makes every view, so it
/// sees what it saw when all were made at open. What SQL hidden in a closure reads
/// (`read`) is made when SQLite says "no such table" for it, and the statement runs again.
///
/// A view's statements may be decided only when it is made (`Making.decided`): another
/// program's view is known by its `id` column only if no two rows share one, which takes
/// reading the whole view, so that is read when the view is first used rather than at
/// open. Each engine makes the views its SQL reads (`StoreEngine.deferredViews`): SQLite's
/// Core Data and foreign-file views, PostgreSQL's views of a schema.
package final class DeferredViews {
    /// What makes a view.
    package enum Making: Equatable {
        /// These statements.
        case statements([String])
        /// `then` when `check` (a query of one boolean) says so, else `otherwise`.
        case decided(check: String, then: [String], otherwise: [String])
    }
    /// Each view's makings (the view, then anything made with it), by its name folded.
    private var pending: [String: [Making]] = [:]
    /// Folded names that are not one identifier token (a model inferred from the store's
    /// tables may name an entity `Journal Entry`): found by searching the folded SQL.
    private var spaced: Set<String> = []

    /// Identifiers that read the schema: any of them makes every view.
    static let schemaReaders: Set<String> = [
        "sqlite_temp_master", "sqlite_temp_schema", "sqlite_master", "sqlite_schema",
        "pragma_table_list", "pragma_table_info", "pragma_table_xinfo", "table_list", "table_info", "table_xinfo"
    ]

    package init(_ views: [(name: String, statements: [String])]) {
        for view in views { add(view.name, .statements(view.statements)) }
    }

    /// Defers another view, made by `making` when SQL first reads `name`.
    package func add(_ name: String, _ making: Making) {
        let folded = Self.folded(name)
        pending[folded, default: []].append(making)
        noteSpaced(folded)
    }

    /// A folded name that is not one identifier token is searched for in the SQL whole.
    private func noteSpaced(_ folded: String) {
        if !folded.utf8.allSatisfy(Self.isIdentifierByte) { spaced.insert(folded) }
    }

    package var isEmpty: Bool { pending.isEmpty }

    /// The makings the last `take` handed out, by name: pending again if making them
    /// failed (`restoreTaken`), so an interrupted first read leaves the view to be made by
    /// the next, rather than never.
    private var taken: [String: [Making]] = [:]

    /// The makings the last `take` handed out are pending again.
    package func restoreTaken() {
        for (name, makings) in taken {
            pending[name, default: []].insert(contentsOf: makings, at: 0)
            noteSpaced(name)
        }
        taken = [:]
    }

    /// The makings of the views `sql` may read, each handed out once.
    package func take(readBy sql: String) -> [Making] {
        guard !pending.isEmpty else { return [] }
        var names: Set<String> = []
        var token: [UInt8] = []
        var readsSchema = false
        func flush() {
            guard !token.isEmpty else { return }
            let name = String(decoding: token, as: UTF8.self)
            if pending[name] != nil { names.insert(name) }
            if Self.schemaReaders.contains(name) { readsSchema = true }
            token.removeAll(keepingCapacity: true)
        }
        for byte in sql.utf8 {
            if Self.isIdentifierByte(byte) {
                token.append((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte)
            } else {
                flush()
            }
        }
        flush()
        if readsSchema { return takeAll() }
        if !spaced.isEmpty {
            let folded = Self.folded(sql)
            // Quoted in the SQL, a `"` in the name is doubled (`"quarry_rows a""b"`); PostgreSQL,
            // unlike SQLite, says no missing name to make it afterwards.
            for name in spaced
            where pending[name] != nil && (folded.contains(name) || folded.contains(name.replacingOccurrences(of: "\"", with: "\"\""))) {
                names.insert(name)
            }
        }
        taken = [:]
        return names.sorted().flatMap { name in
            spaced.remove(name)
            let makings = pending.removeValue(forKey: name) ?? []
            taken[name] = makings
            return makings
        }
    }

    /// The statements of the view SQLite could not find (`DatabaseError.missingTable`:
    /// `main.Asset` or `Asset`), if it is one of these.
    package func take(missingTable named: String) -> [Making] {
        // "main.Asset": the schema is SQLite's prefix; a view's own name may hold a dot.
        var candidates = [named]
        if let dot = named.firstIndex(of: ".") { candidates.append(String(named[named.index(after: dot)...])) }
        taken = [:]
        for candidate in candidates {
            let name = Self.folded(candidate)
            if let makings = pending.removeValue(forKey: name) {
                spaced.remove(name)
                taken[name] = makings
                return makings
            }
        }
        return []
    }

    /// Every view not yet made (before a write: triggers read the views).
    package func takeAll() -> [Making] {
        taken = pending
        defer {
            pending = [:]
            spaced = []
        }
        return pending.keys.sorted().flatMap { pending[$0] ?? [] }
    }

    /// Letters, digits, `_`, `$` and every byte of a non-ASCII character: what SQLite
    /// reads as part of an unquoted identifier.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...:
            return true
        default:
            return false
        }
    }

    package static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
