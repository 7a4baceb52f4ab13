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

    /// Whether `text` is written as a PostgreSQL URL (and not a file's path). A URL with
    /// one slash or none (`postgres:/host/db`) counts, to be refused in one line rather
    /// than made a new SQLite file of that name, unless such a file is there.
    public static func isURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") { return true }
        return (lowered.hasPrefix("postgres:") || lowered.hasPrefix("postgresql:")) && !FileManager.default.fileExists(atPath: text)
    }

    public init(_ text: String) throws {
        let folded = text.lowercased()
        guard folded.hasPrefix("postgres://") || folded.hasPrefix("postgresql://"), let scheme = text.range(of: "://") else {
            throw StoreError.database(message: "\(Self.shown(text)) is not a postgres:// URL: write postgres://USER@HOST[:PORT]/DB, with two slashes")
        }
        // libpq takes the scheme in lower case only.
        let lowered = text[..<scheme.lowerBound].lowercased() + text[scheme.lowerBound...]
        let shown = Self.shown(lowered)
        guard case let (userinfo, _)? = Self.userinfo(lowered) else {
            throw StoreError.database(message: "\(shown): an '@', '/' or '?' inside a user name, password, database name or parameter is written %40, %2F or %3F")
        }
        var base = lowered, query = ""
        if let mark = lowered.firstIndex(of: "?") {
            base = String(lowered[..<mark])
            query = String(lowered[lowered.index(after: mark)...])
        }
        var secrets = userinfo.flatMap(Self.password).map { [String($0)] } ?? []
        var schema: String?
        var installsTriggers = false
        var kept: [Substring] = []
        for parameter in query.split(separator: "&", omittingEmptySubsequences: true) {
            if parameter.hasPrefix("schema=") {
                let value = String(parameter.dropFirst("schema=".count))
                guard let decoded = value.removingPercentEncodingIfValid, !decoded.isEmpty, !decoded.utf8.contains(0) else {
                    throw StoreError.database(message: "\(shown): schema= needs a schema's name")
                }
                schema = decoded
            } else if parameter.hasPrefix("notify=") {
                guard parameter == "notify=triggers" else {
                    throw StoreError.database(message: "\(shown): notify= takes one value, triggers (install the triggers that announce every commit)")
                }
                installsTriggers = true
            } else {
                if Self.isSecret(parameter), let equals = parameter.firstIndex(of: "=") { secrets.append(String(parameter[parameter.index(after: equals)...])) }
                kept.append(parameter)
            }
        }
        self.secrets = (secrets + secrets.compactMap(\.removingPercentEncodingIfValid)).filter { !$0.isEmpty }
        connectionString = base + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        self.schema = schema ?? "public"
        self.installsTriggers = installsTriggers
        self.shown = shown
    }

    /// `message` with the URL's password left out, wherever it appears.
    public func redacted(_ message: String) -> String {
        secrets.sorted { $0.count > $1.count }.reduce(message) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// `text` (a line a person typed) with the password of every PostgreSQL URL in it left
    /// out (`user:password@` and `password=`), for the history file. A URL runs to the
    /// next white space, or, when a quote opens it, to the last such quote before that.
    public static func withoutPasswords(in text: String) -> String {
        guard text.utf8.count >= 11, text.contains("://") else { return text }
        let bytes = Array(text.utf8)
        let lowered = bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard let scheme = ["postgres://", "postgresql://"].first(where: { lowered[i...].starts(with: $0.utf8) }) else {
                out.append(bytes[i]); i += 1; continue
            }
            var end = bytes[(i + scheme.utf8.count)...].firstIndex { $0 == 32 || (9...13).contains($0) } ?? bytes.count
            if i > 0, bytes[i - 1] == UInt8(ascii: "'") || bytes[i - 1] == UInt8(ascii: "\""),
               let quote = bytes[i..<end].lastIndex(of: bytes[i - 1]) { end = quote }
            out += Array(shown(String(decoding: bytes[i..<end], as: UTF8.self)).utf8)
            i = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `url` with no password in it, for messages, the prompt and the history: the user
    /// information without its password, and no `password=` or `sslpassword=` parameter.
    /// A URL that libpq and Quarry would read two ways shows its scheme alone.
    static func shown(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else {
            // `postgres:/user:secret@host`: no part of what follows the scheme is shown.
            return url.lowercased().hasPrefix("postgres") ? String(url.prefix { $0 != ":" }) + ":…" : url
        }
        let rest = url[scheme.upperBound...]
        // Read two ways, any part of it may be a piece of a password (`?password=SEC@RET`).
        guard case let (userinfo, after)? = userinfo(url) else { return url[..<scheme.upperBound] + "…" }
        let user = userinfo.map { String($0[..<($0.firstIndex(of: ":") ?? $0.endIndex)]) + "@" } ?? ""
        let tail = rest[after...]
        guard let mark = tail.firstIndex(of: "?") else { return url[..<scheme.upperBound] + user + tail }
        let kept = tail[tail.index(after: mark)...].split(separator: "&").filter { !isSecret($0) }
        return url[..<scheme.upperBound] + user + tail[..<mark] + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
    }

    /// The user information of `url` (`user:password`, nil for none) and where the rest
    /// begins; nil when libpq would read it otherwise than as written. libpq ends the
    /// user information at the first '@' before any '/' (even past a '?'); a URL's
    /// authority ends at '/' or '?'. Where the two differ, a password holding '@', '/' or
    /// '?' would reach libpq's messages in pieces that no redaction finds.
    private static func userinfo(_ url: String) -> (Substring?, String.Index)? {
        guard let scheme = url.range(of: "://") else { return (nil, url.endIndex) }
        let rest = url[scheme.upperBound...]
        let query = rest.firstIndex(of: "?") ?? rest.endIndex
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let libpqAt = rest[..<slash].firstIndex(of: "@")
        let authorityAt = rest[..<min(query, slash)].lastIndex(of: "@")
        if libpqAt == nil, authorityAt == nil { return rest[..<query].contains("@") ? nil : (nil, rest.startIndex) }
        guard let at = authorityAt, libpqAt == at else { return nil }
        return (rest[..<at], rest.index(after: at))
    }

    /// The password of `user:password`, as written.
    private static func password(_ userinfo: Substring) -> Substring? {
        userinfo.firstIndex(of: ":").map { userinfo[userinfo.index(after: $0)...] }
    }

    /// Whether a query parameter holds a password (`password=`, `sslpassword=`, in any
    /// case or percent-encoding of the name: libpq decodes names).
    private static func isSecret(_ parameter: Substring) -> Bool {
        let name = String(parameter[..<(parameter.firstIndex(of: "=") ?? parameter.endIndex)])
        let decoded = (name.removingPercentEncodingIfValid ?? name).lowercased()
        return decoded == "password" || decoded == "sslpassword"
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
