/// Text with some of its scalars written another way. JSON strings, Swift literals, XML
/// attributes and error lines each escape differently, and each names only what it
/// replaces; the walk over the scalars is this one.
public func escaping(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
    }
    return out
}
