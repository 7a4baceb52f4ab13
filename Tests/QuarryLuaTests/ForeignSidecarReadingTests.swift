import Foundation
import QuarryModel
import QuarryPredicates
import QuarryShell
import QuarryStore
import Testing

/// A foreign file's sidecar (`<file>.quarry`) is read as a model file is: a regular file
/// of bounded size. A link to a special file (`/proc/self/pagemap`, which has no end) or
/// a FIFO is refused in one line at open, not read without bound (issue 48).
@Suite struct ForeignSidecarReadingTests {
    @Test(arguments: ["/proc/self/pagemap", "/dev/zero"]) func aSidecarLinkedToASpecialFileIsRefused(_ target: String) throws {
        let path = try foreignFile("CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT);")
        try FileManager.default.createSymbolicLink(atPath: path + ".quarry", withDestinationPath: target)
        do {
            _ = try StoreOpener.open(path)
            Issue.record("\(target) as a sidecar was read")
        } catch {
            let message = "\(error)"
            #expect(message.contains("\(path).quarry: cannot be read ("), "\(message)")
            #expect(!message.contains("\n"), "\(message)")
        }
    }

    @Test func aSidecarThatIsAFIFOIsRefused() throws {
        let path = try foreignFile("CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT);")
        #expect(mkfifo(path + ".quarry", 0o600) == 0)
        #expect(throws: (any Error).self) { _ = try StoreOpener.open(path) }
    }

    /// Under --safe, relate() and format() hold for the session and write no sidecar.
    @Test func underSafeDeclarationsLastTheSessionAndWriteNoSidecar() throws {
        let path = try foreignFile(
            """
            CREATE TABLE airline (carrier TEXT, name TEXT);
            CREATE TABLE flight (id INTEGER PRIMARY KEY, carrier TEXT, at DATE);
            INSERT INTO airline VALUES ('UA', 'United'); INSERT INTO flight VALUES (1, 'UA', NULL);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        try h.runtime.enterSandbox()
        h.run(#"relate("flight", "carrier", "airline", "carrier"); format("flight", "at", "unix")"#)
        #expect(h.string(#"flight:get(1).airline.name"#) == "United")
        #expect(h.string(#"format("flight", "at")"#) == "unix")
        #expect(!FileManager.default.fileExists(atPath: path + ".quarry"))
    }

    /// A sidecar that declares a table of the file a sub-entity of another would hide the
    /// table behind a view of the other: refused in one line, the sidecar left as it was.
    @Test func aSidecarMayNotMakeATableOfTheFileASubentity() throws {
        let path = try foreignFile(
            """
            CREATE TABLE u (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE v (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO u VALUES (1, 'a'), (2, 'b');
            """)
        let definition =
            #"{"name": "u", "parent": "v", "attributes": [{"name": "name", "type": "string", "isOptional": true, "isIndexed": false, "isUnique": false}]}"#
        let sidecar =
            #"{"quarry": 1, "relate": [], "entities": [{"name": "u", "definition": \#(jsonQuoted(definition))}], "formats": [], "templates": []}"#
        try sidecar.write(toFile: path + ".quarry", atomically: true, encoding: .utf8)
        do {
            let context = try StoreOpener.open(path)
            let h = try Harness(context: context)
            Issue.record("opened; count(u) = \(h.string(#"count("u")"#) ?? "?")")
        } catch {
            #expect("\(error)".contains("declares u a sub-entity of v, but u is a table of the file: refused"), "\(error)")
        }
        #expect(try String(contentsOfFile: path + ".quarry", encoding: .utf8) == sidecar)
    }
}
