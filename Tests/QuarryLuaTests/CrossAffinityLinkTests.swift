import Foundation
import QuarryShell
import QuarryStore
import Testing

/// A to-one link matched by value whose join converts the parent's column: SQLite compares
/// an INTEGER `c.pcode` with a TEXT `p.code` as numbers, so '10' and '010' both equal 10
/// though `code` is declared UNIQUE. Quarry's answer is the matching row with the smallest
/// key, in SQL as in memory: a fetch returns the table's rows once, sections and grouped
/// counts add up to the table, and a predicate names the parent the object reads.
@Suite struct CrossAffinityLinkTests {
    static let parent = """
        CREATE TABLE p(id INTEGER PRIMARY KEY, code TEXT UNIQUE, v TEXT);
        INSERT INTO p VALUES (1, '10', 'ten'), (2, '010', 'oten'), (3, '7', 'seven');
        """

    /// The parent each child's join finds first, as plain SQL says it (the join's sides).
    static let parentValue = "(SELECT v FROM p WHERE p.code = c.pcode ORDER BY p.id LIMIT 1)"

    static func expectOneParentPerChild(_ h: Harness, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let rows = try sqlAnswer(path, "SELECT count(*) FROM c")
        #expect(h.string(#"count("c")"#) == rows, sourceLocation: sourceLocation)
        #expect(h.string(#"#c:fetch{ sort = { "p.v" } }"#) == rows, sourceLocation: sourceLocation)
        let sorted =
            #"(function() local t = {} for _, o in ipairs(c:fetch{ sort = { "p.v", "k" } }) do t[#t + 1] = o.k end return table.concat(t, ",") end)()"#
        #expect(h.string(sorted) == (try sqlAnswer(path, "SELECT k FROM c ORDER BY \(parentValue), k")), sourceLocation: sourceLocation)
        // Each child in one section: the sections hold the table's rows, 'ten' both of its.
        let sectioned =
            #"(function() local n, t = 0, {} for _, s in ipairs(fetch{ "c", sort = { "p.v", "k" }, section = "p.v" }) do n = n + #s; t[#t + 1] = tostring(s.name) .. ":" .. #s end return n .. " " .. table.concat(t, ",") end)()"#
        #expect(h.string(sectioned)?.hasPrefix(rows + " ") == true, "\(h.string(sectioned) ?? "")", sourceLocation: sourceLocation)
        #expect(h.string(sectioned)?.contains("ten:2") == true, sourceLocation: sourceLocation)
        #expect(h.string(sectioned)?.contains("oten") == false, sourceLocation: sourceLocation)
        #expect(h.string(#"c:get(1).p.v"#) == "ten", sourceLocation: sourceLocation)
        try expectCountsAgreeWithSQLite(
            h, path, table: "c",
            [
                ("p.v == 'oten'", "\(parentValue) = 'oten'"),
                ("p.v == 'ten'", "\(parentValue) = 'ten'"),
                ("p.v != nil", "\(parentValue) IS NOT NULL"),
                ("p.v != 'ten'", "\(parentValue) IS NOT 'ten'"),
                ("p == nil", "\(parentValue) IS NULL")
            ], sourceLocation: sourceLocation)
        #expect(h.string(#"count("c", "p.v == 'oten'")"#) == "0", sourceLocation: sourceLocation)
        // Through a to-many first (a subquery, not the request's joins): the same parent.
        try expectCountsAgreeWithSQLite(
            h, path, table: "p",
            [
                ("ANY cs.p.v == 'oten'", "EXISTS (SELECT 1 FROM c WHERE c.pcode = p.code AND \(parentValue) = 'oten')"),
                ("ANY cs.p.v == 'ten'", "EXISTS (SELECT 1 FROM c WHERE c.pcode = p.code AND \(parentValue) = 'ten')")
            ], sourceLocation: sourceLocation)
        // Counted in groups, the children add up to the table.
        let grouped =
            #"(function() local n = 0 for _, r in ipairs(fetch{ "c", properties = { "p.v", "count(*) AS n" }, group = { "p.v" } }) do n = n + r.n end return n end)()"#
        #expect(h.string(grouped) == rows, sourceLocation: sourceLocation)
        #expect(h.string(#"explain(c:fetch{ sort = { "p.v" } })"#)?.contains("NOT EXISTS") == true, sourceLocation: sourceLocation)
    }

    @Test func aDeclaredForeignKeyFromAnIntegerColumnToATextOne() throws {
        let path = try foreignFile(
            Self.parent + """
                CREATE TABLE c(k INTEGER PRIMARY KEY, pcode INTEGER REFERENCES p(code));
                INSERT INTO c VALUES (1, 10), (2, 7), (3, 10), (4, NULL);
                """)
        let h = try Harness(context: try StoreOpener.open(path))
        try Self.expectOneParentPerChild(h, path)
    }

    @Test func aRelatedIntegerColumnToATextOne() throws {
        let path = try foreignFile(
            Self.parent + """
                CREATE TABLE c(k INTEGER PRIMARY KEY, pcode INTEGER);
                INSERT INTO c VALUES (1, 10), (2, 7), (3, 10), (4, NULL), (5, 99);
                """)
        let h = try Harness(context: try StoreOpener.open(path))
        h.run(#"relate("c", "pcode", "p", "code")"#)
        try Self.expectOneParentPerChild(h, path)
    }

    /// A parent column declared with no type keeps '10' and 10 apart; an INTEGER child
    /// column's join converts it, so 10 finds both.
    @Test func anUntypedParentColumn() throws {
        let path = try foreignFile(
            """
            CREATE TABLE p(id INTEGER PRIMARY KEY, code UNIQUE, v TEXT);
            INSERT INTO p VALUES (1, '10', 'text ten'), (2, 10, 'ten'), (3, 'x', 'ex');
            CREATE TABLE c(k INTEGER PRIMARY KEY, pcode INTEGER REFERENCES p(code));
            INSERT INTO c VALUES (1, 10), (2, 'x'), (3, NULL);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        #expect(try sqlAnswer(path, "SELECT count(*) FROM c JOIN p ON p.code = c.pcode") == "3", "SQLite's join finds two parents of c/1")
        #expect(h.string(#"#c:fetch{ sort = { "p.v" } }"#) == "3")
        #expect(h.string(#"c:get(1).p.v"#) == "text ten")
        try expectCountsAgreeWithSQLite(
            h, path, table: "c",
            [
                ("p.v == 'ten'", "\(Self.parentValue) = 'ten'"),
                ("p.v == 'text ten'", "\(Self.parentValue) = 'text ten'"),
                ("p.v != nil", "\(Self.parentValue) IS NOT NULL")
            ])
    }

    /// A TEXT child column to a TEXT unique parent column (a carrier code) compares as
    /// stored: one row at most, and the join keeps no guard.
    @Test func aLinkOfOneAffinityKeepsItsPlainJoin() throws {
        let path = try foreignFile(
            """
            CREATE TABLE p(id INTEGER PRIMARY KEY, code TEXT UNIQUE, v TEXT);
            INSERT INTO p VALUES (1, '10', 'ten'), (2, '010', 'oten');
            CREATE TABLE c(k INTEGER PRIMARY KEY, pcode TEXT REFERENCES p(code));
            INSERT INTO c VALUES (1, '10'), (2, '010');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        let plan = h.string(#"explain(c:fetch{ sort = { "p.v" } })"#) ?? ""
        #expect(plan.contains("LEFT JOIN") && !plan.contains("NOT EXISTS"), "\(plan)")
        #expect(h.string(#"count("c", "p.v == 'oten'")"#) == "1")
        #expect(h.string(#"c:get(2).p.v"#) == "oten")
    }

    /// A TEXT child column to an untyped unique parent column: SQLite converts neither
    /// (`'10'` does not equal 10), so the link matches one row and keeps its plain join.
    @Test func aTextColumnToAnUntypedOneKeepsItsPlainJoin() throws {
        let path = try foreignFile(
            """
            CREATE TABLE p(id INTEGER PRIMARY KEY, code UNIQUE, v TEXT);
            INSERT INTO p VALUES (1, 10, 'ten'), (2, '10', 'text ten');
            CREATE TABLE c(k INTEGER PRIMARY KEY, pcode TEXT REFERENCES p(code));
            INSERT INTO c VALUES (1, '10'), (2, NULL);
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        let plan = h.string(#"explain(c:fetch{ sort = { "p.v" } })"#) ?? ""
        #expect(plan.contains("LEFT JOIN") && !plan.contains("NOT EXISTS"), "\(plan)")
        #expect(h.string(#"c:get(1).p.v"#) == "text ten")
        try expectCountsAgreeWithSQLite(
            h, path, table: "c",
            [("p.v == 'text ten'", "\(Self.parentValue) = 'text ten'"), ("p.v == 'ten'", "\(Self.parentValue) = 'ten'")])
    }
}
