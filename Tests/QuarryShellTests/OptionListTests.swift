import Foundation
import Testing

@testable import QuarryShell

/// The quick reading's option lists (`Options.valued`, `Options.flags`) are checked
/// against the options ArgumentParser declares (the source of --help, the completion
/// scripts and the man page), so a new option cannot be known to one and not the other.
@Suite struct OptionListTests {
    /// Every option's names, as `-x` or `--name`, and whether it takes a value.
    static func declared() throws -> [(names: [String], valued: Bool)] {
        var json = ""
        do { _ = try Options.parse(["--experimental-dump-help"]) } catch { json = Options.fullMessage(for: error) }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let command = try #require(object["command"] as? [String: Any])
        let arguments = try #require(command["arguments"] as? [[String: Any]])
        return arguments.compactMap { argument in
            guard let kind = argument["kind"] as? String, kind != "positional" else { return nil }
            let names = (argument["names"] as? [[String: Any]] ?? []).map { name in
                (name["kind"] as? String == "long" ? "--" : "-") + (name["name"] as? String ?? "")
            }
            return (names, kind == "option")
        }
    }

    @Test func theQuickListsAreArgumentParsersOptions() throws {
        let declared = try Self.declared()
        let valued = declared.filter(\.valued).flatMap(\.names).sorted()
        let flags = declared.filter { !$0.valued }.flatMap(\.names).filter { $0 != "-h" && $0 != "--help" }.sorted()
        #expect(valued == Options.valued.sorted())
        #expect(flags == Options.flags.sorted())
        #expect(Set(Options.known) == Set(valued + flags + ["-h", "--help"]))
    }

    @Test func eachQuickFlagReadsAsArgumentParserReadsIt() throws {
        for flag in Options.flags {
            let quick = try #require(Options.quickOptions([flag], []), "\(flag)")
            let full = try Options.parse([flag]).run
            #expect(quick == full, "\(flag)")
        }
        let quick = try #require(Options.quickOptions(["--init", "x.lua"], []))
        #expect(quick == (try Options.parse(["--init", "x.lua"]).run))
    }

    @Test func theManualHasEveryOptionAndTheContractsSections() {
        let page = Manual.page()
        for option in Options.known where option != "-h" {
            #expect(page.contains(Manual.text(option)), "\(option)")
        }
        for section in ["NAME", "SYNOPSIS", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES"] {
            #expect(page.contains(".SH \(section)"), "\(section)")
        }
    }
}

/// DB's completions (the callback the shells' scripts make through `quarry ---completion`).
@Suite struct DatabaseCompletionTests {
    @Test func filesFoldersAndTheStoresThatAreNoFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("complete-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        // tasks.sqlite.quarry is tasks.sqlite's sidecar; lone.quarry is beside no file.
        for name in ["todo.db", "tasks.sqlite", "tasks.sqlite.quarry", "lone.quarry", ".hidden.db"] {
            _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data())
        }
        let all = Options.completeDatabase([], 0, folder + "/")
        #expect(
            all == [folder + "/lone.quarry", folder + "/sub/", folder + "/tasks.sqlite", folder + "/todo.db", "postgres://", ":memory:"], "\(all)")
        #expect(Options.completeDatabase([], 0, folder + "/to").prefix(1) == [folder + "/todo.db"])
        #expect(Options.completeDatabase([], 0, folder + "/.h").first == folder + "/.hidden.db", "hidden only when asked")
        #expect(Options.completeDatabase([], 0, folder + "/nowhere/").suffix(2) == ["postgres://", ":memory:"])
    }
}
