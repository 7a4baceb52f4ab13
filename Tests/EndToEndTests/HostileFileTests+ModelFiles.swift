import Foundation
import QuarryTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The third hostile review's model-file cases (issue #33) with the real binary: files
/// that crashed it or never ended, DAG bombs, `--timeout` around `--model`, and `model()`
/// leaving a `-shm` beside a store it only read.
extension HostileFileTests {
    // MARK: Files that are not model files

    @Test func procSelfMemAsAModelIsOneLine() async throws {
        let sandbox = try Sandbox()
        let viaLua = try await sandbox.quarry(["-e", #"model("/proc/self/mem")"#])
        expectOneLine(viaLua, ["/proc/self/mem", "cannot read the file"])
        let caught = try await sandbox.quarry(["-e", #"print(pcall(model, "/proc/self/mem"))"#])
        #expect(caught.status == 0 && caught.lines.count == 1 && caught.stdout.hasPrefix("false"), "\(caught)")
        let viaOption = try await sandbox.quarry(["--model", "/proc/self/mem", "-e", "print(1)"])
        expectOneLine(viaOption, ["quarry: /proc/self/mem", "cannot read the file"])
        #expect(viaOption.lines.isEmpty, "\(viaOption)")
        for result in [viaLua, caught, viaOption] {
            #expect(!result.stderr.contains("crashed") && !result.stderr.contains("Fatal error"), "\(result)")
        }
    }

    @Test func aFIFOAsAModelIsRefusedAtOnce() async throws {
        let sandbox = try Sandbox()
        try #require(mkfifo(sandbox.path("pipe.mom"), 0o600) == 0)
        // Nobody writes to the FIFO: waiting on it would end only at the harness's limit.
        let (viaLua, seconds) = try await sandbox.timedQuarry(["--timeout", "30", "-e", #"model("pipe.mom")"#])
        expectOneLine(viaLua, ["pipe.mom", "not a regular file (a FIFO)"])
        #expect(seconds < 10, "took \(seconds) s")
        let viaOption = try await sandbox.quarry(["--model", "pipe.mom", "-e", "print(1)"])
        expectOneLine(viaOption, ["quarry: ", "pipe.mom", "a FIFO"])
    }

    // MARK: DAG bombs

    @Test func aDAGBombMomIsRefusedWithOneLine() async throws {
        let sandbox = try Sandbox()
        try Data(PlistBombs.dagBomb()).write(to: URL(fileURLWithPath: sandbox.path("bomb.mom")))
        let caught = try await sandbox.quarry(["--safe", "--memory", "50M", "-e", #"print(pcall(model, "bomb.mom"))"#])
        #expect(caught.status == 0 && caught.lines.count == 1, "\(caught)")
        #expect(caught.stdout.hasPrefix("false") && caught.stdout.contains("bomb.mom: malformed property list"), "\(caught)")
        #expect(caught.stdout.contains("shared so as to expand"), "\(caught)")
        let viaOption = try await sandbox.quarry(["--model", "bomb.mom", "-e", "print(1)"])
        expectOneLine(viaOption, ["quarry: bomb.mom", "shared so as to expand"])
    }

    @Test func aStoreWhoseModelCacheIsADAGBombOpensWithItsModelInferred() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("store.sqlite")
        try FileManager.default.copyItem(atPath: CoreDataFixtures.path("cars/SampleModel_V1.sqlite"), toPath: store)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store)
        let hex = PlistBombs.dagBombModelCache.map { String(format: "%02x", $0) }.joined()
        let planted = try await sandbox.run(Self.sqlite3, [store, "UPDATE Z_MODELCACHE SET Z_CONTENT = X'\(hex)'"])
        try #require(planted.status == 0, "\(planted)")
        let before = try bytes(sandbox, "store.sqlite")
        let listing = try sandbox.listing()
        let opened = try await sandbox.quarry(["--readonly", "store.sqlite", "-e", "print(1)"])
        #expect(opened.status == 0 && opened.lines == ["1"], "\(opened)")
        #expect(opened.errorLines.count == 1 && opened.stderr.contains("shared so as to expand"), "\(opened)")
        let read = try await sandbox.quarry(["--safe", "-e", #"print(pcall(model, "store.sqlite"))"#])
        #expect(read.status == 0 && read.stdout.hasPrefix("false") && read.stdout.contains("(Z_MODELCACHE)"), "\(read)")
        #expect(try bytes(sandbox, "store.sqlite") == before)
        #expect(try sandbox.listing() == listing)
    }

    // MARK: --timeout and the model

    /// Model XML of `count` entities, each related to the next.
    func bigModel(_ sandbox: Sandbox, entities count: Int) throws {
        var xml = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"# + "\n<model>\n"
        for i in 0..<count {
            let next = (i + 1) % count
            xml +=
                #"<entity name="E\#(i)"><attribute name="name" optional="YES" attributeType="String"/>"#
                + #"<relationship name="next" optional="YES" maxCount="1" destinationEntity="E\#(next)" inverseName="back"/>"#
                + #"<relationship name="back" optional="YES" toMany="YES" destinationEntity="E\#((i + count - 1) % count)" inverseName="next"/></entity>"#
                + "\n"
        }
        xml += "</model>\n"
        try FileManager.default.createDirectory(atPath: sandbox.path("big.xcdatamodel"), withIntermediateDirectories: true)
        try sandbox.write("big.xcdatamodel/contents", xml)
    }

    /// Six seconds, well inside the model's 40 s of defining: with two, a start slowed by
    /// a loaded machine (the whole suite on two cores) ran out before `model()` began.
    @Test func theTimeoutCoversTheModelOption() async throws {
        let sandbox = try Sandbox()
        try bigModel(sandbox, entities: 12_000)
        let viaOption = try await sandbox.quarry(
            ["--timeout", "6", "--model", "big.xcdatamodel", "new.db", "-e", #"print("ran")"#],
            timeout: 60)
        expectOneLine(viaOption, ["quarry: ", "big.xcdatamodel", "timeout"])
        #expect(viaOption.lines.isEmpty, "\(viaOption)")
        // The file made to hold the model is gone with it.
        let left = try sandbox.listing()
        #expect(!left.contains("new.db") && !left.contains("new.db-wal"), "\(left)")
        let viaLua = try await sandbox.quarry(["--timeout", "6", "-e", #"model("big.xcdatamodel"); print("ran")"#], timeout: 60)
        expectOneLine(viaLua, ["big.xcdatamodel", "timeout"])
        #expect(viaLua.lines.isEmpty, "\(viaLua)")
    }

    // MARK: No side files

    /// A copy of the cars store with a `-wal` (SQLite's shell told not to checkpoint it
    /// away on closing) and no `-shm`.
    func storeWithLog(_ sandbox: Sandbox) async throws {
        let store = sandbox.path("store.sqlite")
        try FileManager.default.copyItem(atPath: CoreDataFixtures.path("cars/SampleModel_V1.sqlite"), toPath: store)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store)
        let logged = try await sandbox.run(Self.sqlite3, [store, ".dbconfig no_ckpt_on_close on", "UPDATE Z_METADATA SET Z_VERSION = Z_VERSION"])
        try #require(logged.status == 0, "\(logged)")
        try #require(sandbox.exists("store.sqlite-wal"), "no -wal")
        try FileManager.default.removeItem(atPath: store + "-shm")
    }

    @Test(arguments: [["--safe"], ["--readonly"], []])
    func modelOfAStoreWithALogLeavesNoSideFile(_ flags: [String]) async throws {
        let sandbox = try Sandbox()
        try await storeWithLog(sandbox)
        let store = try bytes(sandbox, "store.sqlite")
        let log = try bytes(sandbox, "store.sqlite-wal")
        let listing = try sandbox.listing()
        let result = try await sandbox.quarry(flags + ["-e", #"print(pcall(model, "store.sqlite"))"#])
        #expect(result.status == 0 && result.lines.count == 1, "\(result)")
        // Read, whatever defining it then says (--readonly refuses to define).
        #expect(flags == ["--readonly"] ? result.stdout.contains("read-only") : result.stdout.hasPrefix("true"), "\(result)")
        #expect(try sandbox.listing() == listing, "side files left")
        #expect(try bytes(sandbox, "store.sqlite") == store && bytes(sandbox, "store.sqlite-wal") == log, "a file changed")
    }

    @Test func aStoreWithALogAndNoCacheLeavesNoSideFileEither() async throws {
        let sandbox = try Sandbox()
        for suffix in ["", "-wal"] {
            let copy = sandbox.path("surf.sqlite" + suffix)
            try FileManager.default.copyItem(atPath: CoreDataFixtures.path("surfjournal/SurfJournalModel.sqlite" + suffix), toPath: copy)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        }
        let listing = try sandbox.listing()
        let before = try bytes(sandbox, "surf.sqlite-wal")
        let result = try await sandbox.quarry(["--safe", "-e", #"model("surf.sqlite")"#])
        expectOneLine(result, ["surf.sqlite", "no model cache"])
        #expect(try sandbox.listing() == listing, "side files left")
        #expect(try bytes(sandbox, "surf.sqlite-wal") == before)
    }
}
