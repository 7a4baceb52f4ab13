/// Passwords in addresses written as URLs (`scheme://user:password@host/…?password=…`)
/// or as libpq's keyword/value connection strings (`host=h password=…`), left out of
/// what Quarry repeats: errors, notes, the prompt and the history. Any scheme: a
/// mistyped one (`postgress://`) holds its password all the same, and the model layer
/// that renders errors knows no engine. Where a server reads the '@' of a URL
/// otherwise than as written (libpq: the first '@' before any '/'), nothing after the
/// scheme is shown, since any part may be a piece of the password.
public enum URLSecrets {
    /// `text` with the password of every URL in it left out (`user:password@` and
    /// `password=`). A URL runs to the next white space, or, when a quote opens it, to the
    /// last such quote before that.
    ///
    /// The values of `password=` and `sslpassword=` in libpq's keyword/value form
    /// (`host=h password=SECRET`, `password = 'a b'`) are left out too (`withoutKeywordPasswords`).
    public static func withoutPasswords(in text: String) -> String {
        withoutKeywordPasswords(in: withoutURLPasswords(in: text))
    }

    /// `text` with the password of every URL in it left out (see `withoutPasswords`).
    static func withoutURLPasswords(in text: String) -> String {
        guard text.utf8.count >= 8, text.contains("://") else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard let length = schemeLength(bytes, at: i) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            var end = bytes[(i + length)...].firstIndex { $0 == 32 || (9...13).contains($0) } ?? bytes.count
            if i > 0, bytes[i - 1] == UInt8(ascii: "'") || bytes[i - 1] == UInt8(ascii: "\""),
                let quote = bytes[i..<end].lastIndex(of: bytes[i - 1])
            {
                end = quote
            }
            out += Array(shown(String(decoding: bytes[i..<end], as: UTF8.self)).utf8)
            i = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` with the value of every `password=` and `sslpassword=` written as libpq's
    /// keyword/value connection strings write them replaced by `***`: the keyword (in any
    /// case) at the start of a word, white space allowed around `=`, and a value read as
    /// libpq reads it: in single quotes (a backslash escapes the next character), or else
    /// up to the next white space (a backslash escapes it). An unquoted value that ends in
    /// the quote that opened the text around it (`"host=h password=x"`) keeps that quote.
    public static func withoutKeywordPasswords(in text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count >= 9, mentionsPassword(bytes) else { return text }
        var out: [UInt8] = []
        var i = 0
        // The quotes of each kind before `i`, counted once as the scan passes them (a
        // count from the start at each password would be quadratic in a long message).
        var quotes: [UInt8: Int] = [:]
        var counted = 0
        while i < bytes.count {
            guard let valueStart = keywordValueStart(bytes, at: i) else {
                out.append(bytes[i])
                i += 1
                continue
            }
            for byte in bytes[counted..<i] where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quotes[byte, default: 0] += 1 }
            counted = i
            out += bytes[i..<valueStart]
            var end = valueStart
            if end < bytes.count, bytes[end] == UInt8(ascii: "'") {
                end += 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "'") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                end = min(end + 1, bytes.count)
                out += Array("'***'".utf8)
            } else {
                while end < bytes.count, !isSpace(bytes[end]) { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
                end = min(end, bytes.count)
                var kept: [UInt8] = []
                // A closing quote of the text around the string, when one is open there.
                if end - 1 > valueStart, [UInt8(ascii: "\""), UInt8(ascii: "'")].contains(bytes[end - 1]),
                    quotes[bytes[end - 1], default: 0] % 2 == 1
                {
                    kept = [bytes[end - 1]]
                }
                out += (end > valueStart ? Array("***".utf8) : []) + kept
            }
            i = end
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `bytes` hold "password" in any case: the cheap test before the scan.
    private static func mentionsPassword(_ bytes: [UInt8]) -> Bool {
        let word = Array("password".utf8)
        guard bytes.count >= word.count else { return false }
        for start in 0...(bytes.count - word.count) where bytes[start] | 0x20 == word[0] {
            if (1..<word.count).allSatisfy({ bytes[start + $0] | 0x20 == word[$0] }) { return true }
        }
        return false
    }

    /// Where the value begins when `password` or `sslpassword` (any case), then `=` with
    /// white space around it or not, starts at `i` at the start of a word.
    private static func keywordValueStart(_ bytes: [UInt8], at i: Int) -> Int? {
        func isWordByte(_ b: UInt8) -> Bool { (65...90).contains(b) || (97...122).contains(b) || (48...57).contains(b) || b == 95 }
        guard i == 0 || !isWordByte(bytes[i - 1]) else { return nil }
        var j = i
        for keyword in ["sslpassword", "password"] {
            let word = Array(keyword.utf8)
            if i + word.count <= bytes.count, (0..<word.count).allSatisfy({ bytes[i + $0] | 0x20 == word[$0] }) {
                j = i + word.count
                break
            }
        }
        guard j > i else { return nil }
        while j < bytes.count, bytes[j] == 32 || bytes[j] == 9 { j += 1 }
        guard j < bytes.count, bytes[j] == UInt8(ascii: "=") else { return nil }
        j += 1
        while j < bytes.count, bytes[j] == 32 || bytes[j] == 9 { j += 1 }
        return j
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 32 || (9...13).contains(b) }

    /// The length of the `scheme://` that starts at `i` (a letter, then letters, digits,
    /// `+`, `-` or `.`), when one starts there and not inside a word.
    private static func schemeLength(_ bytes: [UInt8], at i: Int) -> Int? {
        func isLetter(_ b: UInt8) -> Bool { (65...90).contains(b) || (97...122).contains(b) }
        func isSchemeByte(_ b: UInt8) -> Bool { isLetter(b) || (48...57).contains(b) || b == 43 || b == 45 || b == 46 }
        guard isLetter(bytes[i]), i == 0 || !isSchemeByte(bytes[i - 1]) else { return nil }
        var j = i + 1
        while j < bytes.count, isSchemeByte(bytes[j]) { j += 1 }
        guard j + 2 < bytes.count, bytes[j] == 58, bytes[j + 1] == 47, bytes[j + 2] == 47 else { return nil }
        return j + 3 - i
    }

    /// `url` (`scheme://…`) with no password in it, for messages, the prompt and the
    /// history: the user information without its password, and no `password=` or
    /// `sslpassword=` parameter. A URL that a server and Quarry would read two ways shows
    /// its scheme alone.
    public static func shown(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        // Read two ways, any part of it may be a piece of a password (`?password=SEC@RET`).
        guard case (let userinfo, let after)? = userinfo(url) else { return url[..<scheme.upperBound] + "…" }
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
    public static func userinfo(_ url: String) -> (Substring?, String.Index)? {
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
    public static func password(_ userinfo: Substring) -> Substring? {
        userinfo.firstIndex(of: ":").map { userinfo[userinfo.index(after: $0)...] }
    }

    /// Whether a query parameter holds a password (`password=`, `sslpassword=`, in any
    /// case or percent-encoding of the name: libpq decodes names).
    public static func isSecret(_ parameter: Substring) -> Bool {
        let name = String(parameter[..<(parameter.firstIndex(of: "=") ?? parameter.endIndex)])
        let decoded = (name.removingPercentEncodingIfValid ?? name).lowercased()
        return decoded == "password" || decoded == "sslpassword"
    }
}

extension String {
    /// The text with `%XX` escapes decoded as UTF-8, nil when an escape is malformed.
    package var removingPercentEncodingIfValid: String? {
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexDigit), let low = iterator.next().flatMap(Self.hexDigit) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
