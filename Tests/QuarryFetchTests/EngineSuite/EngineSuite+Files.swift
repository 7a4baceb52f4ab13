import Foundation
import QuarryModel
import QuarryStore
import Testing

/// Export, then import into an entity of the same attributes: every value of every type
/// comes back, through CSV and through JSON (bytes as base64, no bytes and the empty
/// string as `""` apart from nil), and the file says the same on both engines.
extension EngineSuite {
    @Test(arguments: EngineUnderTest.allCases, ["csv", "json"])
    func exportThenImportGivesEveryValueBack(_ engine: EngineUnderTest, _ format: String) async throws {
        try await EngineStore.with(engine, "files\(format)") { store in
            let writer = try store.session()
            try writer.define(Self.sample)
            var copy = Self.sample
            copy.name = "Copy"
            try writer.define(copy)
            for values in Self.samples { _ = try writer.insert(into: "Sample", values: values) }
            try writer.save()

            let path = store.file("samples.\(format)")
            #expect(try Self.request("Sample", sort: ["label"]).execute(in: writer).export(to: path) == Self.samples.count, "\(engine)")
            #expect(try ImportRequest(path, into: "Copy").execute(in: writer).rows == Self.samples.count, "\(engine)")

            let reader = try store.session()
            let originals = try Self.request("Sample", sort: ["label"]).execute(in: reader).objects()
            let copies = try Self.request("Copy", sort: ["label"]).execute(in: reader).objects()
            #expect(copies.count == originals.count, "\(engine)")
            for (original, copied) in zip(originals, copies) {
                for name in Self.sample.attributeNames {
                    let (back, was) = (try copied.value(forKey: name), try original.value(forKey: name))
                    #expect(back == was, "\(engine) \(format): \(name) \(back) \(was)")
                }
            }
        }
    }

    /// The same objects exported by each engine make the same file, byte for byte, but
    /// for a uuid: PostgreSQL's export streams the server's text of it, in lower case,
    /// where SQLite's (and an object's value on both engines) is in upper case. The
    /// engines differ here today.
    @Test(arguments: ["csv", "json"]) func everyEngineExportsTheSameFile(_ format: String) async throws {
        var files: [EngineUnderTest: String] = [:]
        for engine in EngineUnderTest.allCases {
            try await EngineStore.with(engine, "export\(format)") { store in
                let writer = try store.session()
                try writer.define(Self.sample)
                for values in Self.samples { _ = try writer.insert(into: "Sample", values: values) }
                try writer.save()
                let path = store.file("samples.\(format)")
                try Self.request("Sample", sort: ["label"]).execute(in: try store.session()).export(to: path)
                files[engine] = try String(contentsOfFile: path, encoding: .utf8)
            }
        }
        let sqlite = try #require(files[.sqlite])
        #expect(sqlite.contains("E621E1F8-C36C-495A-93FC-0C247A3E6E5F") && sqlite.contains("-32768"), "\(sqlite)")
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        #expect(files[.postgres] == sqlite.replacingOccurrences(of: uuid, with: uuid.lowercased()), "postgres and sqlite")
    }
}
