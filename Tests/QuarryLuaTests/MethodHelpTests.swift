import Foundation
import QuarryLua
import Testing

/// Every method Tab offers after `:` has help (issue 80): on an entity handle, an object,
/// results, a section, a to-many set, a predicate, an observer, a binding, a state and a
/// namespace, by name (`help("Item:updateall")`) and by value (`help(Item.updateall)`).
@Suite struct MethodHelpTests {
    private func harness() throws -> Harness {
        let h = try Harness(console: ConsoleAndFailureTests.RecordingConsole())
        h.run(
            #"""
            entity "Tag" { label = "string" }
            entity "Item" { title = "string", n = "int64", tags = { many = "Tag", inverse = "items" } }
            for i = 1, 3 do Item:new{ title = "t" .. i, n = i } end; save()
            o = Item:first(); r = fetch("Item"); sr = fetch{ "Item", section = "title" }; sec = sr[1]
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
                #expect(h.help(#""\#(value):\#(method)""#)?.contains(entry.usage) == true, "\(value):\(method)")
                #expect(h.help("\(value).\(method)")?.hasPrefix(entry.usage) == true, "help(\(value).\(method))")
            }
        }
        // The walk reached the methods the issue named.
        #expect(Set(["updateall", "deleteall", "get", "first"]).isSubset(of: walked["entity"] ?? []), "\(walked)")
        #expect(Set(["delete", "changes"]).isSubset(of: walked["object"] ?? []), "\(walked)")
        #expect(Set(["configure", "ids", "totable", "objects"]).isSubset(of: walked["results"] ?? []), "\(walked)")
        #expect(walked["predicate"] == ["matches", "swift"] && walked["observer"] == ["cancel"], "\(walked)")
        // A section has fields, not methods: its help is under `section`.
        #expect(walked["section"] == [], "\(walked)")
        #expect(h.help(#""section""#)?.hasPrefix("r[i].id, r[i].name") == true)
    }

    /// Every function Tab reaches after `.` or `:` on each kind of value, sectioned results
    /// among them (`sr.objects`, a method the prelude writes), has help when passed by value,
    /// and so has every global function Tab offers: Quarry's own by their entries, Lua's by
    /// where Lua's manual describes them.
    @Test func everyFunctionTabReachesHasHelpByValue() throws {
        let h = try harness()
        var walked: [String] = []
        for value in ["Item", "o", "r", "sr", "sec", "set", "p", "h", "b", "s", "ns", "quarry", "string", "table", "math", "os", "io"] {
            for separator in [".", ":"] {
                for name in h.runtime.completions(before: value + separator, word: "") {
                    let reached = "\(value).\(name)"
                    guard h.string("select(2, pcall(function() return type(\(reached)) end))") == "function" else { continue }
                    walked.append(reached)
                    let text = h.help(reached)
                    #expect(text?.isEmpty == false, "help(\(reached)) has no help")
                }
            }
        }
        let globals = h.runtime.completions(before: "", word: "").filter { !QuarryRuntime.keywords.contains($0) }
        for name in globals where h.string("type(\(name))") == "function" {
            walked.append(name)
            #expect(h.help(name)?.isEmpty == false, "help(\(name)) has no help")
        }
        #expect(h.help("sr.objects")?.hasPrefix("r:objects()") == true)
        #expect(h.help("print") == "print is Lua's own: https://www.lua.org/manual/5.4/manual.html#pdf-print describes it")
        #expect(h.help("string.format")?.contains("#pdf-string.format") == true)
        // The walk reached what the issue named, and Lua's own functions.
        #expect(Set(["sr.objects", "r.configure", "Item.updateall", "fetch", "print", "string.format"]).isSubset(of: walked), "\(walked)")
    }

    @Test func aNilGlobalAndAnUnknownNameAreAnsweredInOneUsefulLine() throws {
        let h = try harness()
        let nilHelp = try #require(h.help("updateall"))
        #expect(nilHelp.contains(#"help("updateall")"#) && !nilHelp.contains("\n"), "\(nilHelp)")
        #expect(h.help(#""updateall""#)?.hasPrefix("Item:updateall(") == true)
        #expect(h.error(#"help("updatall")"#).contains("did you mean 'updateall'?"))
        // A name both a function and methods have: the function first, then each method.
        let count = try #require(h.help(#""count""#))
        #expect(count.hasPrefix(#"count("Entity""#) && count.contains(#"Item:count("predicate""#), "\(count)")
        // help() lists the methods too, and still ends with the functions.
        let list = try #require(h.help(""))
        #expect(list.contains("entity:updateall") && list.contains("results:configure"), "\(list)")
        #expect(list.components(separatedBy: "\n").contains { $0.hasPrefix("help(fn) describes one of: help, entity") }, "\(list)")
    }

    /// help()'s lists, the functions' too, are wrapped to the terminal's width, every
    /// function still named in them (issue 80: the functions were one line).
    @Test func helpsListsAreWrappedToTheTerminalsWidth() throws {
        let h = try harness()
        h.runtime.settings.format.width = 60
        let list = try #require(h.help(""))
        let lines = list.components(separatedBy: "\n")
        #expect(lines.count > 4 && lines.allSatisfy { $0.count <= 60 }, "\(list)")
        let start = try #require(lines.firstIndex { $0.hasPrefix("help(fn) describes one of: ") }, "\(list)")
        #expect(start < lines.count - 1, "the functions take more than one line at 60 columns: \(list)")
        let keys = try #require(lines.firstIndex { $0.hasPrefix("fetch{} keys") }, "\(list)")
        let named = lines[start..<keys].joined(separator: " ").dropFirst("help(fn) describes one of: ".count)
        #expect(named.components(separatedBy: ", ") == FunctionHelp.all.map(\.calledName), "\(named)")
        // Then the keys of a request, each of which help("key") describes.
        let options = lines[keys...].joined(separator: " ").drop { $0 != ":" }.dropFirst(2)
        #expect(options.components(separatedBy: ", ") == FunctionHelp.options.map(\.name), "\(options)")
    }

    @Test func helpIsWrappedToTheTerminalsWidth() throws {
        let h = try harness()
        h.runtime.settings.format.width = 60
        // fetch's own entry (Item:fetch's follows it, after a blank line).
        let text = try #require(h.help("fetch")?.components(separatedBy: "\n\n").first)
        let lines = text.components(separatedBy: "\n")
        let summary = lines.dropFirst().filter { !$0.hasPrefix("  example:") }
        #expect(summary.count > 3 && summary.allSatisfy { $0.count <= 60 && $0.hasPrefix("  ") }, "\(text)")
        h.runtime.settings.format.width = 0
        let plain = try #require(h.help("fetch")?.components(separatedBy: "\n\n").first)
        #expect(plain.components(separatedBy: "\n").dropFirst().filter { !$0.hasPrefix("  example:") }.allSatisfy { $0.count <= 80 }, "\(plain)")
    }

    @Test func everyFunctionOfTheQuarryTableHasHelp() throws {
        let h = try harness()
        h.run(
            #"""
            names = {}
            for name, value in pairs(quarry) do
              if type(value) == "function" and not name:find("^__") then names[#names + 1] = name end
            end
            table.sort(names)
            """#)
        let names = try #require(h.string("table.concat(names, ' ')")).split(separator: " ").map(String.init)
        #expect(names.contains("fetch") && names.contains("show"), "\(names)")
        let missing = names.filter { name in h.help("quarry.\(name)")?.contains(name) != true }
        #expect(missing.isEmpty, "\(missing)")
    }

    /// show and repr are fields of `quarry`, no globals: help() names them as they are
    /// called, help("quarry.show") finds them, and help(show), given nil, says where they are.
    @Test func functionsOfQuarryAloneAreListedAsTheyAreCalled() throws {
        let h = try harness()
        let list = try #require(h.help("")).replacingOccurrences(of: "\n", with: " ")
        #expect(list.contains(", quarry.show, quarry.repr") && !list.contains(", show,") && !list.contains(", repr"), "\(list)")
        #expect(h.help(#""quarry.show""#)?.hasPrefix("quarry.show(v, ...)") == true)
        #expect(h.help(#""show""#)?.hasPrefix("quarry.show(v, ...)") == true)
        let none = try #require(h.help("show"))
        #expect(none.contains("quarry.show and quarry.repr are called through quarry: help(quarry.show)"), "\(none)")
        // docs/lua-api.md names them so too.
        #expect(FunctionHelp.markdown.contains("## quarry.show\n") && !FunctionHelp.markdown.contains("## show\n"))
    }

    /// help(Item), help(o), help(r): a value that is no function says what it answers,
    /// every method of its kind with its usage (a person types help(activity) first).
    @Test func aValueWithMethodsListsThem() throws {
        let h = try harness()
        let entity = try #require(h.help("Item"))
        #expect(entity.hasPrefix("Item is an entity; its methods:"), "\(entity)")
        for method in FunctionHelp.methods where method.kind == "entity" {
            #expect(entity.contains(method.usage), "help(Item) leaves out \(method.name): \(entity)")
        }
        let object = try #require(h.help("o"))
        #expect(object.hasPrefix("Item/") && object.contains("is an object; its methods:") && object.contains("o:delete()"), "\(object)")
        #expect(h.help("r")?.contains("r:configure{") == true)
        // A long usage is broken at spaces on a narrow terminal, never cut inside a word.
        h.runtime.settings.format.width = 60
        let fetch = try #require(h.help(#""fetch""#)?.components(separatedBy: "\n"))
        #expect(fetch[0].count <= 60 && fetch[1].hasPrefix("    ") && fetch[1].count <= 60, "\(fetch)")
    }

    @Test func examplesAreUsageNotAssertions() {
        for entry in FunctionHelp.all + FunctionHelp.methods {
            #expect(!entry.example.contains("assert("), "\(entry.name): \(entry.example)")
            // Files are named as a person names them, not made and removed around the call.
            for fixture in ["os.tmpname", "io.open", "os.remove"] {
                #expect(!entry.example.contains(fixture), "\(entry.name): \(entry.example)")
            }
        }
    }
}
