import Foundation

/// Reads the package's own Swift sources to count the store seam (issue 82): the
/// requirements each protocol declares, those of them an extension of the protocol
/// answers by default, the code lines naming a type, and the files over a length. Text,
/// not the compiler: a declaration is a line at the protocol's top level that begins with
/// `func`, `var`, `init`, `subscript` or `associatedtype` (after its modifiers).
struct SeamCount {
    /// The package's root, from this file's place in it (`Tests/QuarryStoreTests/`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A source file: its path from the root, its length, and its lines as code (comments
    /// left out, trimmed), read once.
    struct File {
        let path: String
        let lineCount: Int
        let lines: [String]
    }

    /// Every Swift file under `folder` (relative to the root).
    static func sources(under folder: String) -> [File] {
        let base = root.appendingPathComponent(folder)
        guard let walk = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { return [] }
        var files: [File] = []
        for case let url as URL in walk where url.pathExtension == "swift" {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let raw = text.split(separator: "\n", omittingEmptySubsequences: false)
            files.append(
                File(
                    path: String(url.path.dropFirst(root.path.count + 1)), lineCount: raw.count - (text.hasSuffix("\n") ? 1 : 0),
                    lines: raw.map(code)))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// A line without its comment, trimmed; empty for a comment line.
    static func code(_ line: Substring) -> String {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("//") { return "" }
        if let comment = trimmed.range(of: " //") { return String(trimmed[..<comment.lowerBound]) }
        return trimmed
    }

    /// The member a top-level line of a protocol or extension declares, if it declares one.
    static func declaredName(_ line: String) -> String? {
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let modifiers: Set<String> = [
            "package", "public", "private", "fileprivate", "internal", "static", "mutating", "nonmutating", "nonisolated",
            "@discardableResult", "final", "override", "@inlinable", "borrowing", "consuming"
        ]
        while let first = words.first, modifiers.contains(first) || first.hasPrefix("@") { words.removeFirst() }
        guard let keyword = words.first else { return nil }
        switch keyword {
        case "init", "subscript": return keyword
        case _ where keyword.hasPrefix("init(") || keyword.hasPrefix("init<"): return "init"
        case _ where keyword.hasPrefix("subscript("): return "subscript"
        case "func", "var", "associatedtype":
            guard words.count > 1 else { return nil }
            return String(words[1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        default: return nil
        }
    }

    /// The member names declared at the top level of the body opened on the first line
    /// matching `header`, in every file of `files`, each body read to its closing brace.
    static func members(header: (String) -> Bool, in files: [File]) -> [String] {
        var names: [String] = []
        for file in files {
            var depth = 0
            var inside = false
            for line in file.lines {
                if !inside {
                    guard header(line) else { continue }
                    inside = true
                    depth = 0
                } else if depth == 1, let name = declaredName(line) {
                    names.append(name)
                }
                depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
                if inside, depth <= 0, line.contains("}") || line.hasSuffix("{}") { inside = false }
            }
        }
        return names
    }

    /// The requirements `name` declares (not those of the protocols it refines).
    static func requirements(of name: String, in files: [File]) -> [String] {
        members(header: { isDeclaration($0, of: "protocol", name) }, in: files)
    }

    /// What unconstrained extensions of protocol `name` declare: its defaults, by name.
    static func defaults(of name: String, in files: [File]) -> Set<String> {
        Set(members(header: { isDeclaration($0, of: "extension", name) && !$0.contains(" where ") }, in: files))
    }

    static func isDeclaration(_ line: String, of keyword: String, _ name: String) -> Bool {
        let words = line.split(separator: " ").map(String.init)
        guard let at = words.firstIndex(of: keyword), at + 1 < words.count else { return false }
        let declared = words[at + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return declared == name && words[..<at].allSatisfy { ["package", "public", "private", "fileprivate", "internal"].contains($0) }
    }

    /// Code lines of `files` naming `word` as a whole word (comments left out).
    static func codeLines(naming word: String, in files: [File]) -> [String] {
        var found: [String] = []
        for file in files {
            for line in file.lines {
                guard let range = line.range(of: word) else { continue }
                let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
                let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
                let isWordPart = { (c: Character?) in c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
                if !isWordPart(before), !isWordPart(after) { found.append("\(file.path): \(line)") }
            }
        }
        return found
    }

    /// Files of `files` longer than `limit` lines, with their lengths.
    static func longFiles(_ files: [File], over limit: Int) -> [String: Int] {
        var long: [String: Int] = [:]
        for file in files where file.lineCount > limit { long[file.path] = file.lineCount }
        return long
    }
}
