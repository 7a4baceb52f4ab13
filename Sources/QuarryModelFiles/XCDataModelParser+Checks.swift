/// What model XML must be before libxml2 reads it: UTF-8, with no processing instruction
/// and no document type declaration. Xcode writes none of these, and a DTD is where XML's
/// expansion attacks live, so each is refused here, with its line.
import Foundation

extension XCDataModelParser {
    /// Where `data` stops being UTF-8, or declares another encoding; nil when it is UTF-8.
    static func notUTF8(_ data: Data) -> String? {
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        var line = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                offset += scalar.count
                if scalar.count == 1, scalar.first == UInt8(ascii: "\n") { line += 1 }
            case .emptyInput:
                let prolog = String(decoding: data.prefix(200), as: UTF8.self).lowercased()
                if let range = prolog.range(of: "encoding="), prolog.hasPrefix("<?xml") || prolog.hasPrefix("\u{FEFF}<?xml") {
                    let declared = prolog[range.upperBound...].dropFirst().prefix { $0 != "\"" && $0 != "'" }
                    if declared != "utf-8" && declared != "utf8" { return "line 1: the XML declares encoding \(declared); model XML is UTF-8" }
                }
                return nil
            case .error:
                return "line \(line): byte \(offset) is not UTF-8"
            }
        }
    }

    /// Markup Xcode never writes: a processing instruction, and a document type
    /// declaration (entities that expand, external ids). Only the XML declaration at the
    /// start is taken, and no `<!` but comments and CDATA sections (skipped whole: they
    /// may hold anything).
    static func foreignMarkup(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        func at(_ i: Int, _ text: String) -> Bool { bytes[i...].starts(with: text.utf8) }
        func skip(from i: Int, past end: String) -> Int? {
            var j = i
            while j < bytes.count {
                if at(j, end) { return j + end.utf8.count }
                j += 1
            }
            return nil
        }
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var i = start
        var line = 1
        while i < bytes.count - 1 {
            if bytes[i] == UInt8(ascii: "\n") { line += 1 }
            guard bytes[i] == UInt8(ascii: "<") else {
                i += 1
                continue
            }
            if at(i, "<!--") || at(i, "<![CDATA[") {
                let end = at(i, "<!--") ? "-->" : "]]>"
                guard let after = skip(from: i + 4, past: end) else { return nil } // unclosed: the parser says so
                line += bytes[i..<after].filter { $0 == UInt8(ascii: "\n") }.count
                i = after
                continue
            }
            if bytes[i + 1] == UInt8(ascii: "?") {
                let declaration = i == start && at(i, "<?xml") && i + 5 < bytes.count && [9, 10, 13, 32].contains(bytes[i + 5])
                if !declaration { return "line \(line): a processing instruction (<?...?>); model XML has none" }
            } else if bytes[i + 1] == UInt8(ascii: "!") {
                return "line \(line): a document type declaration or other <!...> markup; model XML has none"
            }
            i += 1
        }
        return nil
    }
}
