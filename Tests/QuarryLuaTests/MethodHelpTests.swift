import Foundation
import QuarryLua
import Testing

/// Every method Tab offers after `:` has help (issue 80): on an entity handle, an object,
/// results, a section, a to-many set, a predicate, an observer, a binding, a state and a
/// namespace, by name (`help("Item:updateall")`) and by value (`help(Item.updateall)`).
@Suite struct MethodHelpTests {
    private func harness() throws -> Harness {
        let h = try Harness()
        // As at the prompt: help returns its text and prints nothing itself.
        h.runtime.settings.atPrompt = true
        h.run(
            #"""
            entity "Tag" { label = "string" }
            entity "Item" { title = "string", n = "int64", tags = { many = "Tag", inverse = "items" } }
            for i = 1, 3 do Item:new{ title = "t" .. i, n = i } end; save()
            o = Item:first(); r = fetch("Item"); sec = fetch{ "Item", section = "title" }[1]
            p = predicate("n > 1"); h = observe("Item", function() end); b = bind(o, "title"); s = state(1)
            ns = namespace(); set = o.tags
            """#)
        return h
    }

    @Test func everyMethodTabOffersHasHelpByNameAndByValue() throws {
        let h = try harness()
        var walked: [String: [String]] = [:]
        for value in ["Item", "o", "r", "sec", "set", "p", "h", "b", "s", "ns"] {
            let kind = try #require(h.string("typeof(\(value))"))
            let offered = h.runtime.completions(before: value + ":", word: "")
            walked[kind] = offered
            for method in offered {
                let entry = FunctionHelp.methods.first { $0.name == method && $0.kind == kind }
                #expect(entry != nil, "\(value):\(method) (a \(kind)) has no help")
                guard let entry else { continue }
                #expect(h.string(#"help("\#(value):\#(method)")"#)?.contains(entry.usage) == true, "\(value):\(method)")
                #expect(h.string("help(\(value).\(method))")?.hasPrefix(entry.usage) == true, "help(\(value).\(method))")
            }
        }
        // The walk reached the methods the issue named.
        #expect(Set(["updateall", "deleteall", "get", "first"]).isSubset(of: walked["entity"] ?? []), "\(walked)")
        #expect(Set(["delete", "changes"]).isSubset(of: walked["object"] ?? []), "\(walked)")
        #expect(Set(["configure", "ids", "totable"]).isSubset(of: walked["results"] ?? []), "\(walked)")
        #expect(walked["predicate"] == ["matches", "swift"] && walked["observer"] == ["cancel"], "\(walked)")
        // A section has fields, not methods: its help is under `section`.
        #expect(walked["section"] == [], "\(walked)")
        #expect(h.string(#"help("section")"#)?.hasPrefix("r[i].id, r[i].name") == true)
    }

    @Test func aNilGlobalAndAnUnknownNameAreAnsweredInOneUsefulLine() throws {
        let h = try harness()
        let nilHelp = try #require(h.string("help(updateall)"))
        #expect(nilHelp.contains(#"help("updateall")"#) && !nilHelp.contains("\n"), "\(nilHelp)")
        #expect(h.string(#"help("updateall")"#)?.hasPrefix("Item:updateall(") == true)
        #expect(h.error(#"help("updatall")"#).contains("did you mean 'updateall'?"))
        // A name both a function and methods have: the function first, then each method.
        let count = try #require(h.string(#"help("count")"#))
        #expect(count.hasPrefix(#"count("Entity""#) && count.contains(#"Item:count("predicate""#), "\(count)")
        // help() lists the methods too, and still ends with the functions.
        let list = try #require(h.string("help()"))
        #expect(list.contains("entity:updateall") && list.contains("results:configure"), "\(list)")
        #expect(list.components(separatedBy: "\n").last?.hasPrefix("help(fn) describes one of: help, entity") == true, "\(list)")
    }

    @Test func helpIsWrappedToTheTerminalsWidth() throws {
        let h = try harness()
        h.runtime.settings.format.width = 60
        // fetch's own entry (Item:fetch's follows it, after a blank line).
        let text = try #require(h.string("help(fetch)")?.components(separatedBy: "\n\n").first)
        let lines = text.components(separatedBy: "\n")
        let summary = lines.dropFirst().filter { !$0.hasPrefix("  example:") }
        #expect(summary.count > 3 && summary.allSatisfy { $0.count <= 60 && $0.hasPrefix("  ") }, "\(text)")
        h.runtime.settings.format.width = 0
        let plain = try #require(h.string("help(fetch)")?.components(separatedBy: "\n\n").first)
        #expect(plain.components(separatedBy: "\n").dropFirst().filter { !$0.hasPrefix("  example:") }.allSatisfy { $0.count <= 80 }, "\(plain)")
    }

    @Test func everyFunctionOfTheQuarryTableHasHelp() throws {
        let h = try harness()
        h.run(
            #"""
            missing = {}
            for name, value in pairs(quarry) do
              if type(value) == "function" and not name:find("^__") then
                local ok, text = pcall(help, value)
                if not ok or not text:find(name, 1, true) then missing[#missing + 1] = name end
              end
            end
            table.sort(missing)
            """#)
        #expect(h.string("table.concat(missing, ', ')") == "")
    }

    @Test func examplesAreUsageNotAssertions() {
        for entry in FunctionHelp.all + FunctionHelp.methods {
            #expect(!entry.example.contains("assert("), "\(entry.name): \(entry.example)")
        }
    }
}
