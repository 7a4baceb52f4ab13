import Foundation
import QuarryLua
import Testing

/// Every function the contract (`../shared/spec/lua-api.md`) documents has help: `help(sql)`
/// and `help("watch")` give its usage and what it does, and `help()` lists it (issue 63).
@Suite struct ContractHelpTests {
    private var contractPath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("../shared/spec/lua-api.md").standardizedFileURL.path
    }

    /// Lua's own globals, which the contract calls in its examples.
    private static let luaStandard: Set<String> = [
        "assert", "collectgarbage", "dofile", "error", "getmetatable", "ipairs", "load", "loadfile", "next", "pairs",
        "pcall", "print", "rawequal", "rawget", "rawlen", "rawset", "require", "select", "setmetatable", "tonumber",
        "tostring", "type", "xpcall"
    ]
    /// Names the contract writes as calls that are no global functions: `fn(new, old)`, the
    /// callback observers are given; `new{}` and `get{ 1, 2 }`, a handle's methods
    /// (`Item:new{}`), whose help MethodHelpTests checks.
    private static let notGlobals: Set<String> = ["fn", "new", "get"]

    /// The names of the calls the contract documents: `name(`, `name{` or `name "` at the
    /// start of a code span, and at the start of a line of its Lua blocks.
    static func documentedFunctions(_ text: String) throws -> Set<String> {
        var names: Set<String> = []
        let span = try NSRegularExpression(pattern: #"`([a-z_][A-Za-z0-9_]*)\s*[({"]"#)
        let ns = text as NSString
        for match in span.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            names.insert(ns.substring(with: match.range(at: 1)))
        }
        let call = try NSRegularExpression(pattern: #"^\s*(?:local\s+[A-Za-z0-9_, ]+=\s*)?([a-z_][A-Za-z0-9_]*)\s*[({"]"#)
        var inLua = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                inLua = !inLua && line.hasPrefix("```lua")
                continue
            }
            guard inLua else { continue }
            let nsLine = line as NSString
            if let match = call.firstMatch(in: line, range: NSRange(location: 0, length: nsLine.length)) {
                names.insert(nsLine.substring(with: match.range(at: 1)))
            }
        }
        return names
    }

    @Test func theContractsFunctionsAreFoundInItsText() throws {
        let names = try Self.documentedFunctions("`sql(\"SELECT\")`, `fetch{ \"Item\" }`, `#r`\n```lua\nlocal r = watch(x)\nentity \"A\" {}\n```\n")
        #expect(names == ["sql", "fetch", "watch", "entity"])
    }

    @Test func everyFunctionOfTheContractHasHelp() throws {
        let text = try String(contentsOfFile: contractPath, encoding: .utf8)
        let documented = try Self.documentedFunctions(text).subtracting(Self.luaStandard).subtracting(Self.notGlobals)
        #expect(documented.isSuperset(of: ["fetch", "sql", "watch", "summarize", "histogram", "model"]), "\(documented.sorted())")
        let h = try Harness(console: ConsoleAndFailureTests.RecordingConsole())
        let list = h.help("") ?? ""
        // The list is wrapped to the terminal: a name may follow a line break, not a space.
        let listed = Set(
            (list.components(separatedBy: ": ").last ?? "").components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        var missing: [String] = []
        for name in documented.sorted() {
            // By value, as a person types help(sql), and by name.
            let byValue = h.help(name) ?? ""
            let byName = h.help("\"\(name)\"") ?? ""
            let usage = FunctionHelp.named(name)?.usage
            guard let usage, byValue.hasPrefix(usage), byName.hasPrefix(usage), listed.contains(name) else {
                missing.append(name)
                continue
            }
        }
        #expect(missing.isEmpty, "functions of the contract without help: \(missing.joined(separator: ", "))")
    }
}
