import Foundation
import GRDB
import QuarryCoreData
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Binary attributes that allow external storage (issue 49 item 5). No real store here has
/// one, so each test adds one to a copy of the cars store in the format Core Data writes
/// (`_PFExternalReferenceData`, as public forensics notes and Core Data's own code show it):
/// the column holds `0x01` and the bytes, or `0x02`, a UUID and a NUL naming a file in
/// `.SampleModel_V1_SUPPORT/_EXTERNAL_DATA/`. Every check reads the file and folder directly.
@Suite struct CoreDataExternalStorageTests {
    struct Fixture {
        let path: String
        let model: String
        let sql: DatabaseQueue
        let folder: URL
        static let uuid = "0F6C2A4E-93B1-4F2D-A0E5-6B7C8D9E0F12"
        static let large = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

        init(extraSQL: String = "") throws {
            path = try CoreDataFixtures.copyOfStore("cars/SampleModel_V1.sqlite")
            let xml = try String(
                contentsOfFile: try CoreDataFixtures.path("cars/SampleModel.xcdatamodeld/SampleModel.xcdatamodel/contents"), encoding: .utf8)
            let marker = #"<attribute name="firstName" optional="YES" attributeType="String"/>"#
            #expect(xml.contains(marker))
            let photo = marker + #"<attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>"#
            let modelFolder = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("External.xcdatamodel")
            try FileManager.default.createDirectory(at: modelFolder, withIntermediateDirectories: true)
            try xml.replacingOccurrences(of: marker, with: photo).write(
                to: modelFolder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
            model = modelFolder.path
            folder = URL(fileURLWithPath: path).deletingLastPathComponent()
                .appendingPathComponent(".SampleModel_V1_SUPPORT").appendingPathComponent("_EXTERNAL_DATA")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.large.write(to: folder.appendingPathComponent(Self.uuid))
            let writer = try DatabaseQueue(path: path)
            try writer.write { db in
                try db.execute(sql: "DELETE FROM Z_MODELCACHE; ALTER TABLE ZPERSON ADD COLUMN ZPHOTO BLOB;")
                let keys = try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZPERSON ORDER BY Z_PK LIMIT 3")
                try #require(keys.count == 3)
                // Inline, in a file, and a blob from before the attribute allowed external storage.
                try db.execute(sql: "UPDATE ZPERSON SET ZPHOTO = ? WHERE Z_PK = ?", arguments: [Data([1]) + Data("small".utf8), keys[0]])
                try db.execute(
                    sql: "UPDATE ZPERSON SET ZPHOTO = ? WHERE Z_PK = ?", arguments: [Data([2]) + Data(Self.uuid.utf8) + Data([0]), keys[1]])
                try db.execute(sql: "UPDATE ZPERSON SET ZPHOTO = ? WHERE Z_PK = ?", arguments: [Data("plain".utf8), keys[2]])
                if !extraSQL.isEmpty { try db.execute(sql: extraSQL) }
            }
            try writer.close()
            sql = try DatabaseQueue(path: path)
        }

        func open() throws -> Harness { try Harness(context: try StoreOpener.open(path, model: model)) }

        func keys() throws -> [Int64] {
            try sql.read { db in try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZPERSON ORDER BY Z_PK LIMIT 3") }
        }

        func column(_ key: Int64) throws -> Data? {
            try sql.read { db in try Data.fetchOne(db, sql: "SELECT ZPHOTO FROM ZPERSON WHERE Z_PK = ?", arguments: [key]) }
        }

        func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }
    }

    @Test func eachFormReadsAsTheAttributesBytesInLuaAndInPredicates() throws {
        let f = try Fixture()
        let h = try f.open()
        let k = try f.keys()
        #expect(h.string(#"Person:get("Person/\#(k[0])").photo"#) == "small")
        #expect(h.string(#"#Person:get("Person/\#(k[1])").photo"#) == "\(Fixture.large.count)")
        #expect(
            h.string(
                #"string.char(Person:get("Person/\#(k[1])").photo:byte(1, 3)) == string.char(\#(Fixture.large.prefix(3).map(String.init).joined(separator: ", ")))"#
            ) == "true")
        #expect(h.string(#"Person:get("Person/\#(k[2])").photo"#) == "plain")
        // SQL reads the bytes too: a predicate compares them, not the stored marker.
        #expect(h.string(#"count("Person", "photo == %@", "small")"#) == "1")
        #expect(h.string(#"count("Person", "photo != nil")"#) == "3")
        #expect(h.string(#"sql("SELECT max(length(photo)) AS n FROM Person")[1].n"#) == "\(Fixture.large.count)")
    }

    /// `sql()` reads the bytes, but cannot make or remove a file: only a save's triggers do.
    @Test func sqlCannotWriteOrRemoveAnExternalFile() throws {
        let f = try Fixture()
        let h = try f.open()
        let write = h.error(#"sql("SELECT quarry_cd_external_write(zeroblob(200000), NULL) AS x")"#)
        #expect(write.contains("quarry_cd_external_write() is not allowed here"), "\(write)")
        let release = h.error(#"sql("SELECT quarry_cd_external_release(ZPHOTO) AS x FROM ZPERSON")"#)
        #expect(release.contains("quarry_cd_external_release() is not allowed here"), "\(release)")
        h.run(#"Person:get("Person/\#(try f.keys()[0])").lastName = "Other"; save()"#)
        #expect(try f.files() == [Fixture.uuid])
    }

    @Test func savesWriteSmallValuesInlineAndLargeOnesToAFileRemovingWhatTheyReplace() throws {
        let f = try Fixture()
        let h = try f.open()
        let k = try f.keys()
        h.run(
            #"""
            local a, b = Person:get("Person/\#(k[0])"), Person:get("Person/\#(k[1])")
            a.photo = string.rep("q", 200000)
            b.photo = "tiny"
            save()
            """#)
        let stored = try #require(try f.column(k[0]))
        #expect(stored.first == 2 && stored.last == 0 && stored.count == 38, "\(stored.count) bytes")
        let name = String(decoding: stored.dropFirst().dropLast(), as: UTF8.self)
        #expect(
            FileManager.default.contents(atPath: f.folder.appendingPathComponent(name).path) == Data(repeating: UInt8(ascii: "q"), count: 200_000))
        #expect(try f.column(k[1]) == Data([1]) + Data("tiny".utf8))
        // The replaced value's file is gone with the commit; the new one is the only file.
        #expect(try f.files() == [name])
        // Read back by a fresh session, as Core Data would read it.
        let again = try f.open()
        #expect(again.string(#"#Person:get("Person/\#(k[0])").photo"#) == "200000")
        #expect(again.string(#"Person:get("Person/\#(k[1])").photo"#) == "tiny")
        // A deleted object's file goes once the delete is saved.
        again.run(#"Person:get("Person/\#(k[0])"):delete(); save()"#)
        #expect(try f.files() == [])
    }

    @Test func aSaveThatFailsLeavesNoFileBehind() throws {
        let f = try Fixture(
            extraSQL:
                "CREATE TRIGGER refuse BEFORE INSERT ON ZPERSON WHEN NEW.ZFIRSTNAME = 'boom' AND length(NEW.ZPHOTO) = 38 BEGIN SELECT RAISE(ABORT, 'boom'); END"
        )
        let h = try f.open()
        let message = h.error(
            #"Person:new{ firstName = "boom", id = "6F9619FF-8B86-D011-B42D-00C04FC964FF", updatedAt = now(), photo = string.rep("z", 200000) }; save()"#
        )
        // The trigger refuses only a row whose reference was made: the file was written first.
        #expect(message.contains("boom"), "\(message)")
        #expect(try f.files() == [Fixture.uuid])
    }

    @Test func aMissingOrForgedReferenceIsOneLineNamingIt() throws {
        let f = try Fixture()
        let k = try f.keys()
        try FileManager.default.removeItem(at: f.folder.appendingPathComponent(Fixture.uuid))
        let h = try f.open()
        let missing = h.error(#"print(#Person:get("Person/\#(k[1])").photo)"#)
        #expect(missing.contains("external data file") && missing.contains(Fixture.uuid) && missing.contains("missing"), "\(missing)")
        try f.sql.write { db in
            try db.execute(
                sql: "UPDATE ZPERSON SET ZPHOTO = ? WHERE Z_PK = ?", arguments: [Data([2]) + Data("../../etc/passwd".utf8) + Data([0]), k[1]])
        }
        let forged = try f.open().error(#"print(#Person:get("Person/\#(k[1])").photo)"#)
        #expect(forged.contains("not a file name"), "\(forged)")
        #expect(!forged.contains("\n"), "\(forged)")
    }

    /// A file past what could be returned is refused by its size, before a byte of it is
    /// read (issue 61 item 4): the line names the attribute, the object and the file.
    /// Sparse files: the test uses neither the disk nor the memory their sizes say.
    @Test func aFilePastSQLitesLargestValueIsRefusedByItsSize() throws {
        let f = try Fixture()
        let k = try f.keys()
        // 1.5 GB: past SQLite's largest value (SQLITE_LIMIT_LENGTH, 1,000,000,000 bytes).
        try Self.sparse(f.folder.appendingPathComponent(Fixture.uuid), size: 1_500_000_000)
        let message = try f.open().error(#"print(#Person:get("Person/\#(k[1])").photo)"#)
        #expect(message.contains("Person.photo of object \(k[1])"), "\(message)")
        #expect(message.contains(Fixture.uuid) && message.contains("1500000000 bytes"), "\(message)")
        #expect(message.contains("more than SQLite's largest value allows (1000000000)"), "\(message)")
        #expect(!message.contains("\n") && !message.contains("too big"), "\(message)")
    }

    /// Under `--memory 200M`, a 900 MB file is refused by its size, naming the limit, as
    /// the real binary runs it (the heap bound is the process's own).
    @Test func aFilePastTheMemoryLimitIsRefusedByItsSize() throws {
        let f = try Fixture()
        let k = try f.keys()
        try Self.sparse(f.folder.appendingPathComponent(Fixture.uuid), size: 900_000_000)
        let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/quarry").path
        let run = try Subprocess.run(
            binary, ["--memory", "200M", "--model", f.model, f.path, "-e", #"print(#Person:get("Person/\#(k[1])").photo)"#])
        let errors = String(decoding: run.errors, as: UTF8.self)
        #expect(run.status == 1 && run.output.isEmpty, "\(run.status): \(errors)")
        let lines = errors.split(separator: "\n")
        #expect(lines.count == 1, "\(errors)")
        #expect(errors.contains("Person.photo of object \(k[1])") && errors.contains(Fixture.uuid), "\(errors)")
        #expect(errors.contains("900000000 bytes, more than --memory allows (209715200)"), "\(errors)")
    }

    /// `.<store>_SUPPORT` that is a file: a save that would write a file there says so,
    /// naming the path, in Quarry's words (not Foundation's "error 512"), and changes nothing.
    @Test func aSupportPathThatIsAFileIsSaidByName() throws {
        let f = try Fixture()
        let k = try f.keys()
        let support = f.folder.deletingLastPathComponent()
        try FileManager.default.removeItem(at: support)
        try Data("not a folder".utf8).write(to: support)
        let before = try f.column(k[0])
        let message = try f.open().error(#"Person:get("Person/\#(k[0])").photo = string.rep("q", 200000); save()"#)
        #expect(message.contains(support.path + " should be a folder"), "\(message)")
        #expect(!message.contains("NSCocoaErrorDomain") && !message.contains("\n"), "\(message)")
        #expect(try f.column(k[0]) == before)
        #expect(FileManager.default.contents(atPath: support.path) == Data("not a folder".utf8))
    }

    /// A file of `size` bytes that holds none on disk.
    static func sparse(_ url: URL, size: Int) throws {
        #expect(truncate(url.path, off_t(size)) == 0, "truncate \(url.path): \(errno)")
    }
}
