import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespaces)`, which costs tens of thousands of
    /// instructions a call even when nothing is to be trimmed (every column's default of
    /// a foreign file is read through it at open): Foundation is asked only when the text
    /// starts or ends with a tab, a space or a non-ASCII byte.
    package var trimmingSpaces: String {
        guard let first = utf8.first, let last = utf8.last else { return "" }
        func plain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && byte != 0x09 }
        return plain(first) && plain(last) ? self : trimmingCharacters(in: .whitespaces)
    }
}
