import Foundation
import QuarryModel
import QuarryStore

/// A PostgreSQL store's address as users write it: `postgres://user@host:port/db`, or
/// `postgresql://...` (or libpq's keyword/value form, `PostgresKeywordValue`), with libpq's own parameters in its query and one of Quarry's,
/// `schema=name` (the schema whose tables are the entities; `public` when left out) and
/// `notify=triggers` (install the triggers that announce every commit,
/// `PostgresStore+Triggers`), which are taken out before libpq reads the rest.
public struct PostgresURL: Equatable {
    /// What libpq connects with.
    public let connectionString: String

    /// The same, with `fallback_application_name=quarry`: the server (`pg_stat_activity`,
    /// its log) names Quarry's backends, unless the URL (`application_name=...`) or
    /// `PGAPPNAME` names another, which libpq then takes instead, as it does for psql.
    public var connectingString: String {
        guard !connectionString.contains("fallback_application_name") else { return connectionString }
        if connectionString.hasPrefix("postgres") {
            return connectionString + (connectionString.contains("?") ? "&" : "?") + "fallback_application_name=quarry"
        }
        return connectionString + " fallback_application_name=quarry"
    }
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
    /// A libpq keyword/value connection string (`host=h dbname=d`) counts too
    /// (`PostgresKeywordValue`).
    public static func isURL(_ text: String) -> Bool {
        if PostgresKeywordValue.claims(text) { return true }
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") { return true }
        return (lowered.hasPrefix("postgres:") || lowered.hasPrefix("postgresql:")) && !FileManager.default.fileExists(atPath: text)
    }

    public init(_ text: String) throws {
        if PostgresKeywordValue.claims(text) { try self.init(keywordValue: text) } else { try self.init(url: text) }
    }

    /// A `postgres://` URL.
    private init(url text: String) throws {
        let folded = text.lowercased()
        guard folded.hasPrefix("postgres://") || folded.hasPrefix("postgresql://"), let scheme = text.range(of: "://") else {
            throw StoreError.database(message: "\(Self.shown(text)) is not a postgres:// URL: write postgres://USER@HOST[:PORT]/DB, with two slashes")
        }
        // libpq takes the scheme in lower case only.
        let lowered = text[..<scheme.lowerBound].lowercased() + text[scheme.lowerBound...]
        let shown = Self.shown(lowered)
        guard case (let userinfo, _)? = URLSecrets.userinfo(lowered) else {
            throw StoreError.database(
                message: "\(shown): an '@', '/' or '?' inside a user name, password, database name or parameter is written %40, %2F or %3F")
        }
        var base = lowered
        var query = ""
        if let mark = lowered.firstIndex(of: "?") {
            base = String(lowered[..<mark])
            query = String(lowered[lowered.index(after: mark)...])
        }
        var secrets = userinfo.flatMap(URLSecrets.password).map { [String($0)] } ?? []
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
                    throw StoreError.database(
                        message: "\(shown): notify= takes one value, triggers (install the triggers that announce every commit)")
                }
                installsTriggers = true
            } else {
                if URLSecrets.isSecret(parameter), let equals = parameter.firstIndex(of: "=") {
                    secrets.append(String(parameter[parameter.index(after: equals)...]))
                }
                kept.append(parameter)
            }
        }
        self.secrets = (secrets + secrets.compactMap(\.removingPercentEncodingIfValid)).filter { !$0.isEmpty }
        connectionString = base + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        self.schema = schema ?? "public"
        self.installsTriggers = installsTriggers
        self.shown = shown
    }

    /// A libpq keyword/value connection string (`host=h dbname=d password=…`), read as
    /// `PostgresKeywordValue` reads it: Quarry's `schema=` and `notify=` taken out, every
    /// value quoted for libpq, the passwords kept out of `shown` and messages.
    private init(keywordValue text: String) throws {
        let pairs = try PostgresKeywordValue.pairs(text)
        let shown = PostgresKeywordValue.shown(pairs)
        var schema: String?
        var installsTriggers = false
        for pair in pairs {
            switch pair.keyword {
            case "schema":
                guard !pair.value.isEmpty else { throw StoreError.database(message: "\(shown): schema= needs a schema's name") }
                schema = pair.value
            case "notify":
                guard pair.value == "triggers" else {
                    throw StoreError.database(
                        message: "\(shown): notify= takes one value, triggers (install the triggers that announce every commit)")
                }
                installsTriggers = true
            default: break
            }
        }
        let kept = pairs.filter { !PostgresKeywordValue.quarryKeywords.contains($0.keyword) }
        connectionString = PostgresKeywordValue.connectionString(kept)
        self.schema = schema ?? "public"
        self.installsTriggers = installsTriggers
        self.shown = shown
        // libpq's messages may repeat a value as written or as it was quoted for it.
        let values = pairs.filter { PostgresKeywordValue.secretKeywords.contains($0.keyword) }.map(\.value).filter { !$0.isEmpty }
        secrets = values + values.map(PostgresKeywordValue.escaped)
    }

    /// `message` with the URL's password left out, wherever it appears.
    public func redacted(_ message: String) -> String {
        secrets.sorted { $0.count > $1.count }.reduce(message) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// `text` (a line a person typed) with the password of every URL in it left out
    /// (`URLSecrets`), for the history file.
    public static func withoutPasswords(in text: String) -> String { URLSecrets.withoutPasswords(in: text) }

    /// `url` with no password in it, for messages and the prompt (`URLSecrets.shown`).
    package static func shown(_ url: String) -> String {
        guard url.contains("://") else {
            // `postgres:/user:secret@host`: no part of what follows the scheme is shown.
            return url.lowercased().hasPrefix("postgres") ? String(url.prefix { $0 != ":" }) + ":…" : url
        }
        return URLSecrets.shown(url)
    }
}
