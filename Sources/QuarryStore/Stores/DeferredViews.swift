/// Temporary views a store has described but not yet made, made when SQL first names
/// them. A Core Data store shows each entity as a view (`CoreDataStore`), and SQLite
/// parses a view's SQL twice in making it (70 µs for one of Photos.app's 150 columns):
/// its 85 views were a tenth of a whole `count("Asset")`, which reads one of them.
///
/// The connection asks before each statement it prepares (`StoreConnection`): the SQL's
/// identifiers, folded as SQLite folds them (ASCII only), are looked up among the views
/// not yet made. A name that appears in a string or a column name makes a view nobody
/// reads, which costs only that view; a view read under any spelling SQLite accepts is
/// made before SQLite looks for it. What SQL hidden in a closure reads (`read`) is made
/// when SQLite says "no such table" for it, and the closure runs again.
final class DeferredViews {
    /// Each view's statements (the view, then anything made with it), by its name folded.
    private var pending: [String: [String]] = [:]

    init(_ views: [(name: String, statements: [String])]) {
        for view in views { pending[Self.folded(view.name), default: []] += view.statements }
    }

    var isEmpty: Bool { pending.isEmpty }

    /// The statements of the views `sql` may read, each handed out once.
    func take(readBy sql: String) -> [String] {
        guard !pending.isEmpty else { return [] }
        var taken: [String] = []
        var token: [UInt8] = []
        func flush() {
            if !token.isEmpty, let statements = pending.removeValue(forKey: String(decoding: token, as: UTF8.self)) {
                taken += statements
            }
            token.removeAll(keepingCapacity: true)
        }
        for byte in sql.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): token.append(byte + 32)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), 0x80...: token.append(byte)
            default: flush()
            }
        }
        flush()
        return taken
    }

    /// The statements of the view SQLite's message names ("no such table: main.Asset"),
    /// if it is one of these.
    func take(missingIn message: String) -> [String] {
        let prefix = "no such table: "
        guard message.hasPrefix(prefix) else { return [] }
        var name = Substring(message.dropFirst(prefix.count))
        if let dot = name.lastIndex(of: ".") { name = name[name.index(after: dot)...] }
        return pending.removeValue(forKey: Self.folded(String(name))) ?? []
    }

    /// Every statement not yet made (before a write: triggers read the views).
    func takeAll() -> [String] {
        defer { pending = [:] }
        return pending.keys.sorted().flatMap { pending[$0] ?? [] }
    }

    private static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
