import Foundation
import QuarryLua
import QuarryStore
import Testing

/// `model()` of an Xcode model takes time linear in its entities (issue 61 item 5: 1,000
/// entities took 1.3 s and 4,000 took 20.5 s, as each definition copied the whole model
/// and asked every entity whether it was another program's table). No count of
/// operations reaches that far into the store, so the work is compared: the CPU time of
/// this thread (not the clock, which a loaded machine stretches) for 2,000 entities
/// against 200, with a generous factor: linear gives about 10 (SQLite's own schema work
/// adds a little), the quadratic step gave about 100.
@Suite struct ModelLinearityTests {
    /// A model of `count` entities, each with four attributes, a to-one to the next and
    /// its inverse to-many, written as Xcode writes it.
    static func model(_ count: Int) throws -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel">"#
        for i in 0..<count {
            let next = (i + 1) % count
            let previous = (i + count - 1) % count
            xml += #"<entity name="E\#(i)">"#
            for (a, type) in ["String", "Integer 64", "Double", "Date"].enumerated() {
                xml += #"<attribute name="a\#(a)" optional="YES" attributeType="\#(type)"/>"#
            }
            xml +=
                #"<relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E\#(next)" inverseName="prev" inverseEntity="E\#(next)"/>"#
            xml +=
                #"<relationship name="prev" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="E\#(previous)" inverseName="next" inverseEntity="E\#(previous)"/>"#
            xml += "</entity>"
        }
        xml += "</model>"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("linear-\(UUID().uuidString)/M\(count).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try xml.write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        return folder.path
    }

    /// This thread's CPU time running `body`, in seconds.
    static func cpuTime(_ body: () -> Void) -> Double {
        func now() -> Double {
            var t = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
            return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
        }
        let start = now()
        body()
        return now() - start
    }

    @Test func definingTenTimesTheEntitiesIsAboutTenTimesTheWork() throws {
        let small = try Self.model(200)
        let large = try Self.model(2_000)
        defer {
            for path in [small, large] { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
        }
        let h1 = try Harness()
        let h10 = try Harness()
        let one = Self.cpuTime { h1.run(#"assert(#model("\#(small)") == 200)"#) }
        let ten = Self.cpuTime { h10.run(#"assert(#model("\#(large)") == 2000)"#) }
        // The entities are defined, relationships and inverses included.
        h10.run(#"local a, b = E1998:new{ a0 = "x" }, E1999:new{}; a.next = b; save()"#)
        #expect(h10.string(#"#E1999:first().prev"#) == "1")
        #expect(ten < 40 * one, "200 entities: \(one) s of CPU; 2,000: \(ten) s (\(ten / one) times)")
    }
}
