/// An SQL identifier, quoted so that any entity or attribute name is safe to use.
public func quoteIdentifier(_ name: String) -> String {
    // The common case over contiguous bytes, made in one allocation: the generic
    // `utf8.contains` and two concatenations cost 1,500 instructions a name, and a first
    // open of Photos.app's store quotes 3,500 names.
    let plain = name.utf8.withContiguousStorageIfAvailable { bytes -> String? in
        guard !bytes.contains(UInt8(ascii: "\"")) else { return nil }
        return String(unsafeUninitializedCapacity: bytes.count + 2) { out in
            out[0] = UInt8(ascii: "\"")
            _ = UnsafeMutableBufferPointer(rebasing: out[1...]).initialize(from: bytes)
            out[bytes.count + 1] = UInt8(ascii: "\"")
            return bytes.count + 2
        }
    }
    if let plain = plain ?? nil { return plain }
    guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
    // By hand, not `replacingOccurrences`: Foundation's goes through NSString, whose first
    // use costs a batch run 0.2 ms.
    var quoted = "\""
    for c in name.unicodeScalars {
        if c == "\"" { quoted.unicodeScalars.append(c) }
        quoted.unicodeScalars.append(c)
    }
    quoted.unicodeScalars.append("\"")
    return quoted
}

/// `name` as a person writes it in SQL they paste (a note's `sql(...)` advice): bare
/// where it is ASCII letters, digits and underscores, quoted otherwise.
public func writtenIdentifier(_ name: String) -> String {
    name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } ? name : quoteIdentifier(name)
}

/// `text` as a SQL string literal, its quotes doubled: the one quoter of every engine's SQL.
public func quoteLiteral(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
