import Foundation
import Testing

@testable import QuarryShell

/// Which start-up files a run reads, from its options and the environment (the running of
/// them is in EndToEndTests' StartupFileTests).
@Suite struct StartupFilesTests {
    static func files(_ options: RunOptions = RunOptions(), interactive: Bool, _ environment: [String: String]) -> StartupFiles {
        StartupFiles(options: options, interactive: interactive) { environment[$0] }
    }

    @Test func luaInit54WinsOverLuaInitAndDashCapitalEDropsBoth() {
        #expect(Self.files(interactive: false, ["LUA_INIT": "a", "LUA_INIT_5_4": "b"]).luaInit?.name == "LUA_INIT_5_4")
        #expect(Self.files(interactive: false, ["LUA_INIT": "a"]).luaInit?.value == "a")
        #expect(Self.files(interactive: false, [:]).luaInit == nil)
        var ignoring = RunOptions()
        ignoring.ignoreEnvironment = true
        #expect(Self.files(ignoring, interactive: false, ["LUA_INIT": "a", "LUA_INIT_5_4": "b"]).luaInit == nil)
    }

    @Test func theUserInitFileIsForInteractiveRunsOnly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("startup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: folder.path + "/quarry", withIntermediateDirectories: true)
        try "x = 1".write(toFile: folder.path + "/quarry/init.lua", atomically: true, encoding: .utf8)
        let environment = ["XDG_CONFIG_HOME": folder.path, "HOME": "/nonexistent"]
        #expect(Self.files(interactive: true, environment).initFile == folder.path + "/quarry/init.lua")
        #expect(Self.files(interactive: false, environment).initFile == nil, "a script reads none")
        // A relative XDG_CONFIG_HOME is ignored: HOME's .config then, which has none.
        #expect(Self.files(interactive: true, ["XDG_CONFIG_HOME": "rel", "HOME": "/nonexistent"]).initFile == nil)
        #expect(StartupFiles.userInitFile { ["XDG_CONFIG_HOME": "rel", "HOME": "/h"][$0] } == "/h/.config/quarry/init.lua")
        var none = RunOptions()
        none.noInit = true
        #expect(Self.files(none, interactive: true, environment).initFile == nil)
    }

    @Test func initNamesAFileForAnyRunAndNoInitWins() {
        var named = RunOptions()
        named.initFile = "setup.lua"
        let batch = Self.files(named, interactive: false, [:])
        #expect(batch.initFile == "setup.lua")
        named.noInit = true
        #expect(Self.files(named, interactive: true, [:]).initFile == nil)
    }
}
