import Foundation
import QuarryShell
import QuarryStore
import Testing

/// A foreign file whose one table is named by a thousand others (issue 61 item 5: opening
/// 2,000 such tables took 6.7 s in a debug build, quadratic in the keys naming one table,
/// as each inverse rebuilt the table's lookups and the naming rule scanned its keys). Its
/// time belongs in `scripts/scaling`, never in a test; this checks that every inverse is
/// there, named by the rule, its earlier name still read, and the last one reads in SQL
/// and in memory.
@Suite struct ManyKeysToOneTableTests {
    @Test func aThousandTablesNamingOneParentOpenWithEveryInverseNamed() throws {
        var sql = "CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);\nINSERT INTO parent VALUES (1, 'p');\n"
        for i in 1...1_000 {
            sql +=
                "CREATE TABLE c\(i) (id INTEGER PRIMARY KEY, note TEXT, parent_id INTEGER REFERENCES parent(id), tutor_id INTEGER REFERENCES parent(id));\n"
        }
        sql += "INSERT INTO c1000 VALUES (1, 'a', 1, NULL), (2, 'b', 1, 1);\nINSERT INTO c7 VALUES (1, 'c', NULL, 1);\n"
        let path = try foreignFile(sql)
        let h = try Harness(context: try StoreOpener.open(path))
        let parent = try h.context.entity(named: "parent")
        // Each table's first key gives the plural, its second the plural `_as_` its to-one.
        let expected = Set((1...1_000).flatMap { ["c\($0)s", "c\($0)s_as_tutor"] })
        // (Set differences: a failure names what is missing or extra, not 2,000 names.)
        let names = Set(parent.relationships.map(\.name))
        #expect(
            expected.subtracting(names).isEmpty && names.subtracting(expected).isEmpty,
            "\(expected.subtracting(names).prefix(5)) \(names.subtracting(expected).prefix(5))")
        #expect(parent.relationships.count == 2_000)
        #expect(parent.relationships.allSatisfy { $0.isToMany })
        let aliases = Set(parent.relationshipAliases.keys)
        let earlier = Set((1...1_000).flatMap { ["c\($0)_set", "c\($0)_tutor_set"] })
        #expect(aliases.subtracting(earlier).isEmpty && earlier.subtracting(aliases).isEmpty, "\(aliases.subtracting(earlier).prefix(5))")
        #expect(try h.context.entity(named: "c500").relationships.map(\.name) == ["parent", "tutor"])
        #expect(h.string(#"#parent:get(1).c1000s .. "," .. #parent:get(1).c1000s_as_tutor .. "," .. #parent:get(1).c1000_set"#) == "2,1,2")
        #expect(h.string(#"count("parent", "c1000s.@count == 2 AND ANY c7s_as_tutor.id == 1")"#) == "1")
        h.run(#"local p = predicate("c1000s.@count == 2 AND ANY c7s_as_tutor.id == 1"); assert(p:matches(parent:get(1)))"#)
    }
}
