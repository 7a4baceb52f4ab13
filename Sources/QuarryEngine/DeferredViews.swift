/// Temporary views a store has described but not yet made, made when SQL first names
/// them. A Core Data store shows each entity as a view (`CoreDataStore`), and SQLite
/// parses a view's SQL twice in making it (70 µs for one of Photos.app's 150 columns):
/// its 85 views were a tenth of a whole `count("Asset")`, which reads one of them.
///
/// The connection asks before each statement it prepares (`StoreConnection`): the SQL's
/// identifiers, folded as SQLite folds them (ASCII only), are looked up among the views
/// not yet made. A name that appears in a string or a column name makes a view nobody
/// reads, which costs only that view; a view read under any spelling SQLite accepts is
/// made before SQLite looks for it. SQL that reads the schema itself (the engine names
/// its catalog's identifiers: SQLite's `sqlite_temp_master`, `pragma_table_info(?)`,
/// whose table may be a bound argument) makes every view, so it sees what it saw when
/// all were made at open. What SQL hidden in a closure reads
/// (`read`) is made when SQLite says "no such table" for it, and the statement runs again.
///
/// Each engine makes the views its SQL reads (`StoreEngine.deferredViews`): SQLite's Core
/// Data and foreign-file views, PostgreSQL's views of a schema. Making one reads none of
/// its rows (`ForeignSchema+Views` keys another program's view from its definition).
package final class DeferredViews {
    /// The statements that make a view.
    package typealias Making = [String]
    /// Each view's makings (the view, then anything made with it), by its name folded.
    private var pending: [String: [Making]] = [:]
    /// How many names the last `take(readBy:)` looked up: one per identifier and quoted
    /// name of its SQL, however many views are pending (tests count them).
    package private(set) var lookups = 0

    package init(_ views: [(name: String, statements: [String])]) {
        for view in views { add(view.name, view.statements) }
    }

    /// Defers another view, made by `making` when SQL first reads `name`.
    package func add(_ name: String, _ making: Making) {
        pending[Self.folded(name), default: []].append(making)
    }

    package var isEmpty: Bool { pending.isEmpty }

    /// Forgets the makings of `name` not yet made: the view it described was redefined,
    /// and is described again.
    package func forget(_ name: String) {
        pending.removeValue(forKey: Self.folded(name))
        taken.removeValue(forKey: Self.folded(name))
    }

    /// The makings the last `take` handed out, by name: pending again if making them
    /// failed (`restoreTaken`), so an interrupted first read leaves the view to be made by
    /// the next, rather than never.
    private var taken: [String: [Making]] = [:]

    /// The makings the last `take` handed out are pending again.
    package func restoreTaken() {
        for (name, makings) in taken { pending[name, default: []].insert(contentsOf: makings, at: 0) }
        taken = [:]
    }

    /// The makings of the views `sql` may read, each handed out once. Each identifier,
    /// and each quoted name or string (a name that is not one identifier token, such as
    /// `quarry_rows Journal Entry`, is read only quoted; SQLite takes `'x'` for a name
    /// where one is due), is looked up once: the cost is the SQL's, not the views'.
    /// `schemaReaders`: the identifiers, folded, that read the engine's catalog; any of
    /// them makes every view.
    package func take(readBy sql: String, schemaReaders: Set<String> = []) -> [Making] {
        lookups = 0
        guard !pending.isEmpty else { return [] }
        var names: Set<String> = []
        var readsSchema = false
        func look(_ bytes: [UInt8]) {
            guard !bytes.isEmpty else { return }
            lookups += 1
            let name = String(decoding: bytes, as: UTF8.self)
            if pending[name] != nil { names.insert(name) }
            if schemaReaders.contains(name) { readsSchema = true }
        }
        let bytes = Array(sql.utf8)
        var token: [UInt8] = []
        var at = 0
        while at < bytes.count {
            let byte = bytes[at]
            if Self.isIdentifierByte(byte) {
                token.append(Self.folded(byte))
                at += 1
                continue
            }
            look(token)
            token.removeAll(keepingCapacity: true)
            at += 1
            guard let close = Self.closingQuote(of: byte) else { continue }
            // A quoted name, its quote doubled inside (`"quarry_rows a""b"`), folded whole;
            // the identifiers inside it are looked up too, as SQLite reads `"Car"` as Car.
            var quoted: [UInt8] = []
            while at < bytes.count {
                if bytes[at] == close {
                    guard close != UInt8(ascii: "]"), at + 1 < bytes.count, bytes[at + 1] == close else { break }
                    at += 1
                }
                quoted.append(Self.folded(bytes[at]))
                at += 1
            }
            at += 1
            look(quoted)
            for part in quoted.split(whereSeparator: { !Self.isIdentifierByte($0) }) { look(Array(part)) }
        }
        look(token)
        if readsSchema { return takeAll() }
        taken = [:]
        return names.sorted().flatMap { name in
            let makings = pending.removeValue(forKey: name) ?? []
            taken[name] = makings
            return makings
        }
    }

    /// The quote that closes a quoted name or string opened by `byte`, if it opens one.
    private static func closingQuote(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"): return byte
        case UInt8(ascii: "["): return UInt8(ascii: "]")
        default: return nil
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
                taken[name] = makings
                return makings
            }
        }
        return []
    }

    /// Every view not yet made (before a write: triggers read the views).
    package func takeAll() -> [Making] {
        taken = pending
        defer { pending = [:] }
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

    package static func folded(_ name: String) -> String { String(decoding: name.utf8.map(folded), as: UTF8.self) }

    /// An ASCII capital as its small letter, as SQLite folds a name.
    private static func folded(_ byte: UInt8) -> UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte }
}
