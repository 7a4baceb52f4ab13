import Foundation

/// A PostgreSQL store's address as users write it: `postgres://user@host:port/db`, or
/// `postgresql://...`, with libpq's own parameters in its query and one of Quarry's,
/// `schema=name` (the schema whose tables are the entities; `public` when left out) and
/// `notify=triggers` (install the triggers that announce every commit,
/// `PostgresStore+Triggers`), which are taken out before libpq reads the rest.
public struct PostgresURL: Equatable {
    /// What libpq connects with.
    public let connectionString: String
    public let schema: String
    public let installsTriggers: Bool
    /// The URL without its password, for messages and the prompt.
    public let shown: String
    /// The password as written in the URL (`user:password@`, `password=`), raw and
    /// decoded: left out of any message that repeats it (libpq's echo the URL).
    private let secrets: [String]

    /// Whether `text` is written as a PostgreSQL URL (and not a file's path).
    public static func isURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    public init(_ text: String) throws {
        guard Self.isURL(text), let scheme = text.range(of: "://") else { throw StoreError.database(message: "\(text) is not a postgres:// URL") }
        // libpq takes the scheme in lower case only.
        let lowered = text[..<scheme.lowerBound].lowercased() + text[scheme.lowerBound...]
        var base = lowered, query = ""
        if let mark = lowered.firstIndex(of: "?") {
            base = String(lowered[..<mark])
            query = String(lowered[lowered.index(after: mark)...])
        }
        var secrets = Self.authorityPassword(text).map { [$0] } ?? []
        var schema: String?
        var installsTriggers = false
        var kept: [Substring] = []
        var shownQuery: [Substring] = []
        for parameter in query.split(separator: "&", omittingEmptySubsequences: true) {
            if parameter.hasPrefix("schema=") {
                let value = String(parameter.dropFirst("schema=".count))
                guard let decoded = value.removingPercentEncodingIfValid, !decoded.isEmpty, !decoded.utf8.contains(0) else {
                    throw StoreError.database(message: "\(Self.withoutPassword(text)): schema= needs a schema's name")
                }
                schema = decoded
                shownQuery.append(parameter)
            } else if parameter.hasPrefix("notify=") {
                guard parameter == "notify=triggers" else {
                    throw StoreError.database(message: "\(Self.withoutPassword(text)): notify= takes one value, triggers (install the triggers that announce every commit)")
                }
                installsTriggers = true
                shownQuery.append(parameter)
            } else {
                if parameter.hasPrefix("password=") { secrets.append(String(parameter.dropFirst("password=".count))) }
                else { shownQuery.append(parameter) }
                kept.append(parameter)
            }
        }
        self.secrets = (secrets + secrets.compactMap(\.removingPercentEncodingIfValid)).filter { !$0.isEmpty }
        connectionString = base + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        self.schema = schema ?? "public"
        self.installsTriggers = installsTriggers
        let shownBase = Self.withoutPassword(String(base))
        shown = shownBase + (shownQuery.isEmpty ? "" : "?" + shownQuery.joined(separator: "&"))
    }

    /// `message` with the URL's password left out, wherever it appears.
    public func redacted(_ message: String) -> String {
        secrets.sorted { $0.count > $1.count }.reduce(message) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// `text` (a line a person typed) with the password of every PostgreSQL URL in it left
    /// out (`user:password@` and `password=`), for the history file.
    public static func withoutPasswords(in text: String) -> String {
        guard text.range(of: "postgres", options: .caseInsensitive) != nil else { return text }
        var out = ""
        var token = ""
        func flush() {
            if isURL(token) {
                var shown = withoutPassword(token)
                if let mark = shown.firstIndex(of: "?") {
                    let kept = shown[shown.index(after: mark)...].split(separator: "&").filter { !$0.lowercased().hasPrefix("password=") }
                    shown = String(shown[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
                }
                out += shown
            } else {
                out += token
            }
            token = ""
        }
        for c in text {
            if c.isWhitespace || c == "\"" || c == "'" || c == "(" || c == ")" || c == "[" || c == "]" || c == "," {
                flush()
                out.append(c)
            } else {
                token.append(c)
            }
        }
        flush()
        return out
    }

    /// The password of `user:password@`, as written.
    private static func authorityPassword(_ text: String) -> String? {
        guard let scheme = text.range(of: "://") else { return nil }
        let rest = text[scheme.upperBound...]
        let authority = rest[..<(rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex)]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        return String(authority[authority.index(after: colon)..<at])
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
            throw StoreError.postgres(sqlState: state, sql: nil, message: "cannot open \(address.shown): \(address.redacted(message))")
        }
        // Other sessions' commits are heard from here on (`PostgresConnection+Notifications`).
        try server.execute("LISTEN \(PostgresConnection.channel)")
        server.announcedSchema = address.schema
        try server.execute("SELECT set_config('search_path', $1, false), set_config('default_transaction_read_only', 'on', false)",
                           [.text(quoteIdentifier(address.schema))])
        let connection = try StoreConnection(postgres: server, url: address.shown, readOnly: readOnly)
        if readOnly, address.installsTriggers {
            throw StoreError.readOnly(operation: "notify=triggers")
        }
        try self.init(connection: connection, store: PostgresStore(schema: address.schema, installsTriggers: address.installsTriggers))
    }
}
