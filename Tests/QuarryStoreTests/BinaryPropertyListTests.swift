import Foundation
import GRDB
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// Quarry's binary property list reader against Foundation's `PropertyListSerialization`:
/// the same values from the same bytes, for lists Foundation writes and for the real model
/// archives of `../shared/data/coredata`; and broken bytes are an error, never a trap.
@Suite struct BinaryPropertyListTests {
    /// A value as text, whichever reader made it (Foundation's numbers may be `NSNumber`,
    /// its UIDs an internal class): booleans, integers and fractions kept apart.
    static func canonical(_ value: Any) -> String {
        if let uid = PlistValue.uid(value) { return "uid(\(uid))" }
        if PlistValue.isBool(value), let b = value as? Bool { return b ? "true" : "false" }
        if let s = value as? String { return "s" + s.debugDescription }
        if let n = PlistValue.int(value) { return "i\(n)" }
        // Foundation on Linux gives a real that holds a whole number (-1.0) as an integer.
        if let d = PlistValue.double(value) { return d == d.rounded() && abs(d) < 1e18 ? "i\(Int(d))" : "r\(d)" }
        if let data = value as? Data { return "d" + data.base64EncodedString() }
        if let date = value as? Date { return "t\(date.timeIntervalSinceReferenceDate)" }
        if let list = value as? [Any] { return "[" + list.map(canonical).joined(separator: ",") + "]" }
        if let dictionary = value as? [String: Any] {
            return "{" + dictionary.keys.sorted().map { $0.debugDescription + ":" + canonical(dictionary[$0] ?? "missing") }.joined(separator: ",")
                + "}"
        }
        return "?\(type(of: value))"
    }

    /// Quarry's typed value as the same text.
    static func canonical(_ value: Plist) -> String {
        switch value {
        case .uid(let n): return "uid(\(n))"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return "s" + s.debugDescription
        case .integer(let n): return "i\(n)"
        case .real(let d): return d == d.rounded() && abs(d) < 1e18 ? "i\(Int(d))" : "r\(d)"
        case .data(let data): return "d" + data.base64EncodedString()
        case .date(let date): return "t\(date.timeIntervalSinceReferenceDate)"
        case .array(let list): return "[" + list.map { canonical($0) }.joined(separator: ",") + "]"
        case .dictionary(let dictionary):
            return "{"
                + dictionary.keys.sorted().map { $0.debugDescription + ":" + canonical(dictionary[$0] ?? .string("missing")) }.joined(separator: ",")
                + "}"
        }
    }

    static func foundation(_ data: Data) throws -> Any {
        try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    @Test func readsWhatFoundationWritesAsFoundationReadsIt() throws {
        let value: [String: Any] = [
            "ints": [0, 1, 255, 256, 65_535, 65_536, 2_147_483_648, -1, -300, Int(Int64.min), Int(Int64.max)],
            "reals": [1.5, -2.25, 1e300, 0.1],
            "strings": ["", "ascii", "ünïcødé", "emoji 🎉 and 中文", String(repeating: "x", count: 40)],
            "data": [Data(), Data([0, 1, 2, 255]), Data(repeating: 7, count: 300)],
            "flags": [true, false],
            "date": Date(timeIntervalSinceReferenceDate: 12_345.5),
            "nested": ["a": ["b": [1, "two", ["c": false]]], "long": Array(0..<40)]
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        #expect(BinaryPropertyList.isBinary(data))
        let ours = try BinaryPropertyList.read(data, path: "test")
        #expect(Self.canonical(ours) == Self.canonical(try Self.foundation(data)))
        #expect(Self.canonical(ours).contains("s\"ünïcødé\""))
        #expect(Self.canonical(ours).contains("i-9223372036854775808"))
    }

    /// Every real model archive: the `.mom` files, and the stores' model caches inflated.
    static func realArchives() throws -> [(String, Data)] {
        var archives: [(String, Data)] = []
        for mom in ["SampleModel.mom", "SampleModel2.mom", "SampleModel3.mom"] {
            let path = try CoreDataFixtures.path("cars/SampleModel.momd/" + mom)
            archives.append((mom, try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        let stores = CoreDataFixtures.stores.filter(\.hasCache).map(\.path) + ["photos/Photos.sqlite", "books2/SampleModel2_V2.sqlite"]
        for store in stores {
            let copy = try CoreDataFixtures.copyOfStore(store)
            let blob = try DatabaseQueue(path: copy).read { db in
                try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE")
            }
            guard let blob else { throw SwiftCompiler.Failure(description: "\(store) has no Z_MODELCACHE row") }
            archives.append((store, Data(try Inflate.inflate([UInt8](blob), path: store))))
        }
        return archives
    }

    @Test func readsEveryRealModelArchiveAsFoundationDoes() throws {
        let archives = try Self.realArchives()
        #expect(archives.count == 8)
        for (name, data) in archives {
            #expect(BinaryPropertyList.isBinary(data), "\(name)")
            let ours = Self.canonical(try BinaryPropertyList.read(data, path: name))
            let theirs = Self.canonical(try Self.foundation(data))
            let same = ours.commonPrefix(with: theirs).count
            #expect(
                ours == theirs,
                "\(name): at \(same): ours \(ours.dropFirst(max(0, same - 60)).prefix(120)) Foundation's \(theirs.dropFirst(max(0, same - 60)).prefix(120))"
            )
            #expect(ours.contains("s\"NSKeyedArchiver\""), "\(name)")
        }
    }

    /// Bytes changed at random in a real archive: a value or a `ModelFileError`, whichever
    /// the bytes make, and never a trap (the check runs first, as every caller does).
    @Test func changedBytesAreAnErrorOrAValueNeverATrap() throws {
        guard let (_, original) = try Self.realArchives().first(where: { $0.0 == "SampleModel.mom" }) else {
            Issue.record("no SampleModel.mom")
            return
        }
        var random = SplitMix64(seed: 28)
        var errors = 0
        for _ in 0..<600 {
            var bytes = [UInt8](original)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                // Mostly the trailer and offset table, where one byte moves everything.
                let at = random.next() % 2 == 0 ? bytes.count - 1 - Int(random.next() % 600) : Int(random.next() % UInt64(bytes.count))
                bytes[at] = UInt8(truncatingIfNeeded: random.next())
            }
            do {
                _ = try PropertyListValue.read(Data(bytes), path: "changed")
            } catch is ModelFileError {
                errors += 1
            }
        }
        #expect(errors > 50)
        for truncated in [0, 8, 39, original.count / 2, original.count - 1] {
            #expect(throws: ModelFileError.self) { try PropertyListValue.read(Data(original.prefix(truncated)), path: "cut") }
        }
    }
}
