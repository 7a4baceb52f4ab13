import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import QuarryTestSupport
import Testing

/// Issue 45's "done when": random files another program made (`RandomForeignSchema`),
/// opened with Quarry and asked what plain SQL answers. Every relationship name is an
/// identifier, unique in any case among its entity's keys; every to-many holds the rows
/// SQL finds, by `#`, by `@count` and by membership (a join table's pairs included); a
/// member compared with its own object (`ANY rel.score < score`) answers alike in SQL,
/// in memory and in hand-written SQL; one save deleting rows in any order leaves the rows
/// SQLite leaves with `foreign_keys=ON` (or is refused where SQLite refuses, writing
/// nothing); and a parent inserted with its child in one save is written first.
@Suite struct ForeignSchemaPropertyTests {
    /// Seeds 61...300 pass too (checked by hand, about 55 s). 219 has a table with a CASCADE
    /// key and then a RESTRICT key to one parent: SQLite checks the RESTRICT key before the
    /// cascade runs when it is declared second (refusing the parent's delete), after it when
    /// declared first, and so does Quarry (`ForeignKeyOrder`); it was the one that failed.
    static let seeds: [UInt64] = Array(1...60) + [219]

    /// A to-many relationship and the SQL finding its members of parent row `p`.
    struct ToMany {
        let entity: Int
        let name: String
        let destination: Int
        /// `FROM ... WHERE ...` naming the members `m` of the row `p`.
        let members: String
        /// A pair's join table, and its key naming the row `p`.
        var join: (table: Int, from: RandomForeignSchema.ForeignKey)?
    }

    @Test(arguments: ForeignSchemaPropertyTests.seeds) func aForeignFileAnswersAsSQLDoes(_ seed: UInt64) throws {
        var schema = RandomForeignSchema(seed: seed)
        let path = try foreignFile(schema.sql())
        defer { try? FileManager.default.removeItem(atPath: path) }
        let label = "seed \(seed): \(schema.description)"
        let h = try Harness(context: try StoreOpener.open(path))
        // Rows are named by their object IDs (the table's rowid): a bare number is a table's
        // own key where it has one.
        h.run(
            "__E = {}; for _, e in ipairs(entities()) do __E[e.name] = e end; function __row(name, n) return __E[name]:get(name .. '/' .. n) end")
        let toManys = try relationships(h, schema, path, label)
        for toMany in toManys { try compareMembers(h, schema, toMany, path, label) }
        for toMany in toManys where schema.tables[toMany.destination].join == nil {
            try compareMemberPredicates(h, schema, toMany, path, label)
        }
        try compareViews(h, schema, path, label)
        var g = SplitMix64(seed: seed &* 7919)
        for round in 0..<6 { try deleteRound(h, schema, path, mode: round % 4, &g, label) }
        for toMany in toManys where toMany.join != nil && g.chance(0.5) { try unlinkRound(h, schema, path, toMany, &g, label) }
        try insertParentsWithChildren(h, schema, path, &g, label)
    }

    // MARK: The model

    /// Checks the names, and returns every to-many with the SQL of its members.
    private func relationships(_ h: Harness, _ schema: RandomForeignSchema, _ path: String, _ label: String) throws -> [ToMany] {
        let q = quoteIdentifier
        for entity in h.context.entities {
            let keys = entity.keyNames.map { $0.lowercased() }
            #expect(Set(keys).count == keys.count, "\(label): \(entity.name) has keys alike but for case: \(entity.keyNames)")
            for name in entity.relationships.map(\.name) {
                let isIdentifier = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && name.first?.isNumber == false
                #expect(isIdentifier, "\(label): \(entity.name).\(name) is no identifier")
            }
        }
        var toManys: [ToMany] = []
        for (c, table) in schema.tables.enumerated() {
            let child = try h.context.entity(named: table.name)
            for key in table.foreignKeys {
                let parent = schema.tables[key.parent]
                guard let toOne = child.relationships.first(where: { !$0.isToMany && $0.column == key.column }),
                    let inverse = try h.context.entity(named: parent.name).relationship(named: toOne.inverse ?? "")
                else {
                    Issue.record("\(label): no relationship for \(table.name).\(key.column)")
                    continue
                }
                #expect(inverse.isToMany && inverse.destination == table.name, "\(label): \(parent.name).\(inverse.name)")
                toManys.append(
                    ToMany(
                        entity: key.parent, name: inverse.name, destination: c,
                        members: "FROM \(q(table.name)) m WHERE m.\(q(key.column)) = p.\(q(key.ref))"))
            }
            guard table.join != nil else { continue }
            // The pair a join table gives: one to-many each way (both on one entity for a
            // table joining it to itself).
            let (x, y) = (table.foreignKeys[0], table.foreignKeys[1])
            let (a, b) = (schema.tables[x.parent], schema.tables[y.parent])
            let pairs = try h.context.entity(named: a.name).relationships.filter { r in
                r.isToMany && r.destination == b.name && (try? h.context.entity(named: b.name).relationship(named: r.inverse ?? ""))?.isToMany == true
            }
            #expect(pairs.count == (x.parent == y.parent ? 2 : 1), "\(label): \(table.name) joins \(a.name) and \(b.name) by \(pairs.map(\.name))")
            func through(_ from: RandomForeignSchema.ForeignKey, _ to: RandomForeignSchema.ForeignKey) -> String {
                let (f, t) = (schema.tables[from.parent], schema.tables[to.parent])
                return
                    "FROM \(q(table.name)) j JOIN \(q(t.name)) m ON m.\(q(t.ident!)) = j.\(q(to.column)) WHERE j.\(q(from.column)) = p.\(q(f.ident!))"
            }
            if x.parent != y.parent, let ab = pairs.first, let ba = ab.inverse {
                toManys.append(ToMany(entity: x.parent, name: ab.name, destination: y.parent, members: through(x, y), join: (c, x)))
                toManys.append(ToMany(entity: y.parent, name: ba, destination: x.parent, members: through(y, x), join: (c, y)))
            } else if pairs.count == 2 {
                // Which way each goes is told by their members.
                let forward = try members(h, a, pairs[0].name, a) == sqlMembers(schema, x.parent, through(x, y), x.parent, path)
                toManys.append(
                    ToMany(entity: x.parent, name: pairs[forward ? 0 : 1].name, destination: x.parent, members: through(x, y), join: (c, x)))
                toManys.append(
                    ToMany(entity: x.parent, name: pairs[forward ? 1 : 0].name, destination: x.parent, members: through(y, x), join: (c, y)))
            }
        }
        return toManys
    }

    // MARK: Members

    /// Each object's members of `relationship`, by ident: `ident=m1,m2#count` a line,
    /// sorted (members sorted too).
    private func members(_ h: Harness, _ table: RandomForeignSchema.Table, _ relationship: String, _ destination: RandomForeignSchema.Table) throws
        -> [String]
    {
        let member = destination.ident.map { "tostring(m[\(lua($0))])" } ?? "'?'"
        let lines =
            h.string(
                """
                (function()
                  local out = {}
                  for _, o in ipairs(fetch(\(lua(table.name)))) do
                    local ids = {}
                    for _, m in ipairs(o[\(lua(relationship))]) do ids[#ids + 1] = \(member) end
                    table.sort(ids)
                    out[#out + 1] = tostring(o[\(lua(table.ident!))]) .. "=" .. table.concat(ids, ",") .. "#" .. #o[\(lua(relationship))]
                  end
                  return table.concat(out, "\\n")
                end)()
                """) ?? ""
        return lines.split(separator: "\n").map { sortedMembers($0) }.sorted()
    }

    /// The same lines as plain SQL finds them.
    private func sqlMembers(_ schema: RandomForeignSchema, _ entity: Int, _ membersSQL: String, _ destination: Int, _ path: String) throws -> [String]
    {
        let q = quoteIdentifier
        let (table, member) = (schema.tables[entity], schema.tables[destination].ident.map { "CAST(m.\(quoteIdentifier($0)) AS TEXT)" } ?? "'?'")
        return try read(path) { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT CAST(p.\(q(table.ident!)) AS TEXT), (SELECT group_concat(x, ',') FROM (SELECT \(member) AS x \(membersSQL) ORDER BY 1)), (SELECT count(*) \(membersSQL)) FROM \(q(table.name)) p"
            )
            .map { row in sortedMembers("\(row[0] as String)=\((row[1] as String?) ?? "")#\(row[2] as Int)") }
        }.sorted()
    }

    private func compareMembers(_ h: Harness, _ schema: RandomForeignSchema, _ toMany: ToMany, _ path: String, _ label: String) throws {
        let (table, destination) = (schema.tables[toMany.entity], schema.tables[toMany.destination])
        let expected = try sqlMembers(schema, toMany.entity, toMany.members, toMany.destination, path)
        #expect(try members(h, table, toMany.name, destination) == expected, "\(label): \(table.name).\(toMany.name)")
        // `@count` in a predicate, for each count some object has and one none has.
        let counts = expected.compactMap { $0.split(separator: "#").last.flatMap { Int($0) } }
        for n in Set(counts + [0, 99]) {
            let want = counts.filter { $0 == n }.count
            #expect(
                h.string("count(\(lua(table.name)), \(lua("\(toMany.name).@count == \(n)")))") == "\(want)",
                "\(label): \(table.name).\(toMany.name).@count == \(n)")
        }
    }

    /// `ANY rel.score < score` and its kin: the right side is the object's own.
    private func compareMemberPredicates(_ h: Harness, _ schema: RandomForeignSchema, _ toMany: ToMany, _ path: String, _ label: String) throws {
        let table = schema.tables[toMany.entity]
        let r = toMany.name
        let cases = [
            ("ANY \(r).score < score", "EXISTS (SELECT 1 \(toMany.members) AND m.score < p.score)"),
            ("ANY \(r).label == label", "EXISTS (SELECT 1 \(toMany.members) AND m.label = p.label)"),
            ("NONE \(r).score >= score", "NOT EXISTS (SELECT 1 \(toMany.members) AND m.score >= p.score)"),
            ("ALL \(r).score > score - 3", "NOT EXISTS (SELECT 1 \(toMany.members) AND NOT (m.score > p.score - 3))"),
            ("ANY \(r).score * 2 > score + 5", "EXISTS (SELECT 1 \(toMany.members) AND m.score * 2 > p.score + 5)")
        ]
        for (predicate, exists) in cases {
            let want = try read(path) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoteIdentifier(table.name)) p WHERE \(exists)") ?? -1
            }
            let inSQL = h.string("count(\(lua(table.name)), \(lua(predicate)))")
            let inMemory = h.string(
                """
                (function()
                  local p, n = predicate(\(lua(predicate))), 0
                  for _, o in ipairs(fetch(\(lua(table.name)))) do if p:matches(o) then n = n + 1 end end
                  return n
                end)()
                """)
            #expect(
                inSQL == "\(want)" && inMemory == "\(want)",
                "\(label): \(table.name) \(predicate): SQL \(inSQL ?? "-"), memory \(inMemory ?? "-"), plain SQL \(want)")
        }
        // A batch change, which names no objects, takes the same rows.
        let (predicate, exists) = cases[0]
        let mark = "u-\(r)"
        let q = quoteIdentifier
        let want = try read(path) { db in try Int64.fetchAll(db, sql: "SELECT p.rowid FROM \(q(table.name)) p WHERE \(exists) ORDER BY 1") }
        let changed = h.string("__E[\(lua(table.name))]:updateall(\(lua(predicate)), {}, { label = \(lua(mark)) })")
        let marked = try read(path) { db in
            try Int64.fetchAll(db, sql: "SELECT rowid FROM \(q(table.name)) WHERE label = ? ORDER BY 1", arguments: [mark])
        }
        #expect(
            changed == "\(want.count)" && marked == want,
            "\(label): \(table.name):updateall(\(predicate)) changed \(changed ?? "-"): \(marked), not \(want)")
        #expect(
            h.string("count(\(lua(table.name)), 'label == %@', \(lua(mark)))") == "\(want.count)", "\(label): \(table.name) objects after updateall")
    }

    /// A view's computed columns have the type of their values, and filter as SQL does.
    private func compareViews(_ h: Harness, _ schema: RandomForeignSchema, _ path: String, _ label: String) throws {
        for view in schema.views {
            let rows = try read(path) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoteIdentifier(view.name))") ?? 0 }
            guard rows > 0 else { continue }
            let entity = try h.context.entity(named: view.name)
            let types = ["n", "total", "mean", "top"].map { entity.attribute(named: $0)?.type }
            #expect(types == [.int64, .int64, .double, .string], "\(label): view \(view.name) types \(types)")
            let want = try read(path) { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(quoteIdentifier(view.name)) WHERE n >= 2 AND mean > 3") ?? -1
            }
            #expect(h.string("count(\(lua(view.name)), 'n >= 2 AND mean > 3')") == "\(want)", "\(label): view \(view.name)")
        }
    }

    // MARK: Helpers

    /// `k=b,a#2` -> `k=a,b#2`.
    func sortedMembers<S: StringProtocol>(_ line: S) -> String {
        guard let eq = line.firstIndex(of: "="), let hash = line.lastIndex(of: "#") else { return String(line) }
        let members = String(line[line.index(after: eq)..<hash]).split(separator: ",").map { String($0) }.sorted()
        return String(line[...eq]) + members.joined(separator: ",") + String(line[hash...])
    }

    func read<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    /// Every row of every table, by rowid.
    func dump(_ path: String, _ schema: RandomForeignSchema) throws -> [String] {
        try read(path) { db in
            try schema.tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT rowid, * FROM \(quoteIdentifier(table.name)) ORDER BY rowid").map { "\(table.name): \($0)" }
            }
        }
    }

    /// A Lua string literal holding `text`.
    func lua(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
