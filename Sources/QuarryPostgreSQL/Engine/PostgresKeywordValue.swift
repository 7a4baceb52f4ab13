import Foundation
import QuarryModel
import QuarryStore

/// A PostgreSQL store's address in libpq's keyword/value form, as psql takes it:
/// `host=127.0.0.1 port=5432 user=ann dbname=shop password='a b'`, with Quarry's own
/// `schema=` and `notify=triggers` (as in a URL's query), taken out before libpq reads
/// the rest.
///
/// What counts as one: text whose first word (after any white space) is one of libpq's
/// keywords, or `schema` or `notify`, in any case, followed by `=` (white space allowed
/// around it). A file's name rarely starts so; a file whose name does is opened as
/// `./host=…`. Anything else is a file's path, as before.
///
/// Read as libpq reads it: pairs separated by white space; a value in single quotes
/// (where `\'` and `\\` are a quote and a backslash) may hold white space, and an
/// unquoted one ends at white space (a backslash escapes the next character). Every
/// keyword is checked here, before libpq sees the text: libpq's own messages for an
/// unknown keyword or a missing `=` repeat the word, which may be a piece of a password
/// written with a space and no quotes (`password=a b`); Quarry's never repeat a word that
/// follows a password.
enum PostgresKeywordValue {
    /// libpq's keywords (PostgreSQL 17's, a superset of older ones: a keyword the loaded
    /// libpq does not know is refused by it, naming the keyword alone).
    static let libpqKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth",
        "channel_binding", "connect_timeout", "client_encoding", "options", "application_name",
        "fallback_application_name", "keepalives", "keepalives_idle", "keepalives_interval",
        "keepalives_count", "tcp_user_timeout", "replication", "gssencmode", "sslmode",
        "sslnegotiation", "requiressl", "sslcompression", "sslcert", "sslkey", "sslpassword",
        "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer",
        "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib",
        "gssdelegation", "service", "target_session_attrs", "load_balance_hosts"
    ]
    /// The keywords whose values are secrets: never shown, and left out of libpq's messages.
    static let secretKeywords: Set<String> = ["password", "sslpassword"]
    /// Quarry's own, as in a URL's query.
    static let quarryKeywords: Set<String> = ["schema", "notify"]

    /// Whether `text` is written as a keyword/value connection string (see the type).
    static func claims(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var i = skipSpace(bytes, 0)
        let start = i
        while i < bytes.count, isKeywordByte(bytes[i]) { i += 1 }
        let keyword = String(decoding: bytes[start..<i], as: UTF8.self).lowercased()
        i = skipSpace(bytes, i)
        return i < bytes.count && bytes[i] == UInt8(ascii: "=")
            && (libpqKeywords.contains(keyword) || quarryKeywords.contains(keyword))
    }

    /// One pair as written: its keyword (lower case) and its value (unescaped).
    struct Pair: Equatable {
        let keyword: String
        let value: String
    }

    /// The pairs of `text`, read as libpq reads them; throws, in one line that repeats no
    /// word that follows a password, when a pair is malformed or a keyword unknown.
    static func pairs(_ text: String) throws -> [Pair] {
        let bytes = Array(text.utf8)
        var pairs: [Pair] = []
        var i = skipSpace(bytes, 0)
        while i < bytes.count {
            // A word after a password may be a piece of it (`password=a b`): not repeated.
            let afterSecret = pairs.last.map { secretKeywords.contains($0.keyword) } ?? false
            let start = i
            while i < bytes.count, !isSpace(bytes[i]), bytes[i] != UInt8(ascii: "=") { i += 1 }
            let word = String(decoding: bytes[start..<i], as: UTF8.self)
            let keyword = word.lowercased()
            i = skipSpace(bytes, i)
            let place = pairs.last.map { "after \(shownPair($0))" } ?? "at its start"
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                if afterSecret {
                    throw error("a word after the password has no '=': a password holding white space is written in single quotes ('a b')")
                }
                throw error("'\(word)' \(place) has no '=': write keyword=value, a value holding white space in single quotes (options='-c x=1')")
            }
            guard !word.isEmpty else { throw error("an '=' \(place) has no keyword before it: write keyword=value") }
            guard libpqKeywords.contains(keyword) || quarryKeywords.contains(keyword) else {
                if afterSecret {
                    throw error("a word after the password is no keyword: a password holding white space is written in single quotes ('a b')")
                }
                let known = Array(libpqKeywords.union(quarryKeywords)).sorted()
                let suggestion = closestMatch(to: keyword, in: known).map { " (did you mean \($0)?)" } ?? ""
                throw error("'\(word)' \(place) is not a keyword libpq or Quarry knows\(suggestion)")
            }
            i = skipSpace(bytes, i + 1)
            var value: [UInt8] = []
            if i < bytes.count, bytes[i] == UInt8(ascii: "'") {
                i += 1
                var closed = false
                while i < bytes.count {
                    if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count {
                        value.append(bytes[i + 1])
                        i += 2
                        continue
                    }
                    if bytes[i] == UInt8(ascii: "'") {
                        closed = true
                        i += 1
                        break
                    }
                    value.append(bytes[i])
                    i += 1
                }
                guard closed else { throw error("the quoted value of \(keyword)= has no closing quote (') ") }
            } else {
                while i < bytes.count, !isSpace(bytes[i]) {
                    if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count {
                        value.append(bytes[i + 1])
                        i += 2
                        continue
                    }
                    value.append(bytes[i])
                    i += 1
                }
            }
            guard !value.contains(0) else { throw error("the value of \(keyword)= holds a NUL character") }
            pairs.append(Pair(keyword: keyword, value: String(decoding: value, as: UTF8.self)))
            i = skipSpace(bytes, i)
        }
        return pairs
    }

    /// `pairs` as libpq reads them: every value in single quotes, escaped.
    static func connectionString(_ pairs: [Pair]) -> String {
        pairs.map { "\($0.keyword)='\(escaped($0.value))'" }.joined(separator: " ")
    }

    /// `pairs` for messages and the prompt: no secret's pair, a value quoted only when it
    /// must be.
    static func shown(_ pairs: [Pair]) -> String {
        pairs.filter { !secretKeywords.contains($0.keyword) }.map(shownPair).joined(separator: " ")
    }

    private static func shownPair(_ pair: Pair) -> String {
        if secretKeywords.contains(pair.keyword) { return "\(pair.keyword)=***" }
        let plain = !pair.value.isEmpty && !pair.value.utf8.contains { isSpace($0) || $0 == UInt8(ascii: "'") || $0 == UInt8(ascii: "\\") }
        return "\(pair.keyword)=" + (plain ? pair.value : "'\(escaped(pair.value))'")
    }

    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }

    private static func error(_ message: String) -> StoreError {
        .database(message: "connection string: \(message)")
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 32 || (9...13).contains(b) }
    private static func isKeywordByte(_ b: UInt8) -> Bool { (65...90).contains(b) || (97...122).contains(b) || (48...57).contains(b) || b == 95 }
    private static func skipSpace(_ bytes: [UInt8], _ i: Int) -> Int {
        var i = i
        while i < bytes.count, isSpace(bytes[i]) { i += 1 }
        return i
    }
}
