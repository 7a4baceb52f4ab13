/// A PostgreSQL store's address as users write it: `postgres://user@host:port/db`, or
/// `postgresql://...`, with libpq's own parameters in its query and one of Quarry's,
/// `schema=name` (the schema whose tables are the entities; `public` when left out),
/// which is taken out before libpq reads the rest.
public struct PostgresURL: Equatable {
    /// What libpq connects with.
    public let connectionString: String
    public let schema: String
    /// The URL without its password, for messages and the prompt.
    public let shown: String

    /// Whether `text` is written as a PostgreSQL URL (and not a file's path).
    public static func isURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    public init(_ text: String) throws {
        guard Self.isURL(text) else { throw StoreError.database(message: "\(text) is not a postgres:// URL") }
        var base = text, query = ""
        if let mark = text.firstIndex(of: "?") {
            base = String(text[..<mark])
            query = String(text[text.index(after: mark)...])
        }
        var schema: String?
        var kept: [Substring] = []
        for parameter in query.split(separator: "&", omittingEmptySubsequences: true) {
            if parameter.hasPrefix("schema=") {
                let value = String(parameter.dropFirst("schema=".count))
                guard let decoded = value.removingPercentEncodingIfValid, !decoded.isEmpty else {
                    throw StoreError.database(message: "\(Self.withoutPassword(text)): schema= needs a schema's name")
                }
                schema = decoded
            } else {
                kept.append(parameter)
            }
        }
        connectionString = base + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        self.schema = schema ?? "public"
        shown = Self.withoutPassword(text)
    }

    /// `text` with the password of its user (`user:password@`) left out.
    static func withoutPassword(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<scheme.upperBound]) + authority[..<colon] + authority[at...] + rest[authorityEnd...]
    }
}

private extension String {
    /// The text with `%XX` escapes decoded as UTF-8, nil when an escape is malformed.
    var removingPercentEncodingIfValid: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(Self.hexDigit), let low = iterator.next().flatMap(Self.hexDigit) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension ObjectContext {
    /// Opens the schema a `postgres://` URL names (`PostgresURL`) as a store: its tables
    /// as entities, read on the server. Its session reads only (writing is not supported
    /// yet), with the schema first on its search path so Quarry's SQL names tables bare.
    public convenience init(postgres url: String, readOnly: Bool = false) throws {
        let address = try PostgresURL(url)
        let server: PostgresConnection
        do { server = try PostgresConnection(url: address.connectionString) } catch let StoreError.postgres(state, _, message) {
            throw StoreError.postgres(sqlState: state, sql: nil, message: "cannot open \(address.shown): \(message)")
        }
        try server.execute("SELECT set_config('search_path', $1, false), set_config('default_transaction_read_only', 'on', false)",
                           [.text(quoteIdentifier(address.schema))])
        let connection = try StoreConnection(postgres: server, url: address.shown, readOnly: readOnly)
        try self.init(connection: connection, store: PostgresStore(schema: address.schema))
    }
}
