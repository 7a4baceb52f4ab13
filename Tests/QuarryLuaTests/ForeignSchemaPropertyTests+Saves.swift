import Foundation
import GRDB
import QuarrySQLite
import QuarryStore
import QuarryTestSupport
import Testing

/// The saves of `ForeignSchemaPropertyTests`: deletes in one save against SQLite's own
/// foreign keys, and parents inserted with their children.
extension ForeignSchemaPropertyTests {
    /// A row of a table, by its rowid (which Quarry's objects of every table are known by).
    struct RowRef: Hashable {
        let table: Int
        let rowid: Int64
    }

    /// Some rows and what deleting them takes: the rows that a NO ACTION or RESTRICT key
    /// names (theirs too, through CASCADE), children first. `mode` 0 deletes them in that
    /// order, 1 in a random order, 2 some of them in a random order, 3 moves some children
    /// to other parents (or none) first and deletes in a random order. The same changes run
    /// in plain SQL (`foreign_keys=ON`, each statement checked) on a copy, and through
    /// Quarry in one save: both take them or both refuse, and the rows left are the same.
    func deleteRound(_ h: Harness, _ schema: RandomForeignSchema, _ path: String, mode: Int, _ g: inout SplitMix64, _ label: String) throws {
        let q = quoteIdentifier
        let all: [RowRef] = try read(path) { db in
            try schema.tables.indices.flatMap { t in
                try Int64.fetchAll(db, sql: "SELECT rowid FROM \(q(schema.tables[t].name))").map { RowRef(table: t, rowid: $0) }
            }
        }
        guard !all.isEmpty else { return }
        let picked = (0..<g.int(1...3)).map { _ in g.pick(all) }
        var order: [RowRef] = []
        var explicit: Set<RowRef> = []
        var seen: Set<RowRef> = []
        try read(path) { db in
            func visit(_ row: RowRef, named: Bool) throws {
                if named { explicit.insert(row) }
                guard seen.insert(row).inserted else { return }
                let table = schema.tables[row.table]
                for (c, child) in schema.tables.enumerated() {
                    for key in child.foreignKeys where key.parent == row.table && key.action != "SET NULL" {
                        let children =
                            "SELECT c.rowid FROM \(q(child.name)) c JOIN \(q(table.name)) p ON c.\(q(key.column)) = p.\(q(key.ref)) WHERE p.rowid = ?"
                        for rowid in try Int64.fetchAll(db, sql: children, arguments: [row.rowid]) {
                            try visit(RowRef(table: c, rowid: rowid), named: key.action != "CASCADE")
                        }
                    }
                }
                order.append(row)
            }
            for row in picked { try visit(row, named: true) }
        }
        var deletes = order.filter(explicit.contains)
        if mode == 2 { deletes = deletes.filter { _ in g.chance(0.65) } }
        if mode > 0 { deletes.shuffle(using: &g) }
        guard !deletes.isEmpty else { return }
        let moves = mode == 3 ? try randomMoves(h, schema, path, &g) : []
        let steps = moves.map(\.description).joined() + deletes.map { "\(schema.tables[$0.table].name)/\($0.rowid)" }.joined(separator: " ")

        let list = deletes.map { "{\(lua(schema.tables[$0.table].name)), \($0.rowid)}" }.joined(separator: ", ")
        try compare(
            h, schema, path, "deleting \(steps) (mode \(mode))", label,
            sql: moves.map(\.sql) + deletes.map { "DELETE FROM \(q(schema.tables[$0.table].name)) WHERE rowid = \($0.rowid)" },
            lua: moves.map(\.lua).joined() + """
                for _, d in ipairs({\(list)}) do
                  local E = __E[d[1]]
                  local o = E:get(E.name .. "/" .. d[2])
                  if o and not o:isDeleted() then o:delete() end
                end
                """)
    }

    /// A row of one side of a join table, its links removed through the pair the table
    /// gives and then deleted, in one save; in plain SQL, its join rows and then it.
    func unlinkRound(_ h: Harness, _ schema: RandomForeignSchema, _ path: String, _ toMany: ToMany, _ g: inout SplitMix64, _ label: String) throws {
        guard let (j, from) = toMany.join else { return }
        let q = quoteIdentifier
        let (table, join) = (schema.tables[toMany.entity], schema.tables[j])
        let rows = try read(path) { db in try Int64.fetchAll(db, sql: "SELECT rowid FROM \(q(table.name))") }
        guard !rows.isEmpty else { return }
        let row = g.pick(rows)
        try compare(
            h, schema, path, "unlinking \(table.name)/\(row).\(toMany.name) and deleting it", label,
            sql: [
                "DELETE FROM \(q(join.name)) WHERE \(q(from.column)) = (SELECT \(q(from.ref)) FROM \(q(table.name)) WHERE rowid = \(row))",
                "DELETE FROM \(q(table.name)) WHERE rowid = \(row)"
            ],
            lua: """
                local E = __E[\(lua(table.name))]
                local o, r = E:get(E.name .. "/\(row)"), \(lua(toMany.name))
                for _, m in ipairs(o[r]) do o[r]:remove(m) end
                o:delete()
                """)
    }

    /// `sql` run in plain SQL (`foreign_keys=ON`, each statement checked) on a copy of the
    /// file whose join tables' links go with either end (`JoinLinksOracle`), and `lua` through Quarry and saved once: both take the change or both refuse
    /// it, and the rows left are the same.
    private func compare(_ h: Harness, _ schema: RandomForeignSchema, _ path: String, _ what: String, _ label: String, sql: [String], lua: String)
        throws
    {
        let copy = path + ".copy"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try JoinLinksOracle.linksGoWithEitherEnd(copy, as: h.context)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let sqlite = try DatabaseQueue(path: copy, configuration: configuration)
        var sqliteTook = true
        do {
            try sqlite.write { db in for statement in sql { try db.execute(sql: statement) } }
        } catch {
            sqliteTook = false
        }
        try sqlite.close()
        let outcome = saving(h, lua)
        #expect((outcome == "took") == sqliteTook, "\(label): \(what): SQLite \(sqliteTook ? "took" : "refused"), Quarry \(outcome)")
        let (left, want) = (try dump(path, schema), try dump(copy, schema))
        #expect(left == want, "\(label): \(what) leaves \(Set(left).symmetricDifference(want).sorted())")
        #expect(try read(path) { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.isEmpty, "\(label): \(what)")
    }

    /// A child moved to another parent (or to none), in SQL and in Lua.
    struct Move: CustomStringConvertible {
        let sql: String
        let lua: String
        let description: String
    }

    /// One to three children of random foreign keys, each moved to a random parent row, or
    /// to none where the column takes NULL.
    private func randomMoves(_ h: Harness, _ schema: RandomForeignSchema, _ path: String, _ g: inout SplitMix64) throws -> [Move] {
        let q = quoteIdentifier
        var moves: [Move] = []
        for _ in 0..<g.int(1...3) {
            let keyed = schema.tables.indices.filter { schema.tables[$0].join == nil && !schema.tables[$0].foreignKeys.isEmpty }
            guard !keyed.isEmpty else { break }
            let c = g.pick(keyed)
            let table = schema.tables[c]
            let key = g.pick(table.foreignKeys)
            let parent = schema.tables[key.parent]
            let (children, parents) = try read(path) { db in
                (
                    try Int64.fetchAll(db, sql: "SELECT rowid FROM \(q(table.name))"),
                    try Int64.fetchAll(db, sql: "SELECT rowid FROM \(q(parent.name))")
                )
            }
            guard !children.isEmpty, !parents.isEmpty else { continue }
            let (child, to) = (g.pick(children), key.notNull || g.chance(0.8) ? g.pick(parents) : nil)
            let relationship = try h.context.entity(named: table.name).relationships.first { !$0.isToMany && $0.column == key.column }?.name ?? "?"
            let value = to.map { "(SELECT \(q(key.ref)) FROM \(q(parent.name)) WHERE rowid = \($0))" } ?? "NULL"
            moves.append(
                Move(
                    sql: "UPDATE \(q(table.name)) SET \(q(key.column)) = \(value) WHERE rowid = \(child)",
                    lua:
                        "__row(\(lua(table.name)), \(child))[\(lua(relationship))] = \(to.map { "__row(\(lua(parent.name)), \($0))" } ?? "nil")\n",
                    description: "\(table.name)/\(child).\(relationship) = \(to.map { "\(parent.name)/\($0)" } ?? "nil"); "))
        }
        return moves
    }

    /// For a few foreign keys: a new child, then a new parent, linked, in one save; and two
    /// new objects linked through each join table. The rows name each other in the file.
    func insertParentsWithChildren(_ h: Harness, _ schema: RandomForeignSchema, _ path: String, _ g: inout SplitMix64, _ label: String) throws {
        let q = quoteIdentifier
        var made = 0
        for (c, table) in schema.tables.enumerated() where table.join == nil {
            for key in table.foreignKeys where g.chance(0.6) {
                made += 1
                let parent = schema.tables[key.parent]
                let (childLabel, parentLabel) = ("new child \(made)", "new parent \(made)")
                guard let childInit = try newObject(schema, c, path, &g, label: childLabel, besides: key.column),
                    let parentInit = try newObject(schema, key.parent, path, &g, label: parentLabel)
                else { continue }
                let relationship =
                    try h.context.entity(named: table.name).relationships.first { !$0.isToMany && $0.column == key.column }?.name ?? "?"
                let outcome = saving(
                    h,
                    """
                    local c = __E[\(lua(table.name))]:new\(childInit)
                    local p = __E[\(lua(parent.name))]:new\(parentInit)
                    c[\(lua(relationship))] = p
                    """)
                let what = "\(label): a new \(table.name) with a new \(parent.name) by \(key.column)"
                #expect(outcome == "took", "\(what): \(outcome)")
                let linked = try read(path) { db in
                    try String.fetchAll(
                        db,
                        sql: """
                            SELECT CAST(c.\(q(key.column)) AS TEXT) || '|' || CAST(p.\(q(key.ref)) AS TEXT) FROM \(q(table.name)) c, \(q(parent.name)) p
                            WHERE c.label = ? AND p.label = ?
                            """, arguments: [childLabel, parentLabel])
                }
                #expect(linked.count == 1 && linked.first.map { Set($0.split(separator: "|")).count == 1 } == true, "\(what): \(linked)")
            }
        }
        // Two new objects linked through a join table.
        for table in schema.tables where table.join != nil {
            made += 1
            let (x, y) = (table.foreignKeys[0], table.foreignKeys[1])
            let (a, b) = (schema.tables[x.parent], schema.tables[y.parent])
            let (aLabel, bLabel) = ("new a \(made)", "new b \(made)")
            guard let aInit = try newObject(schema, x.parent, path, &g, label: aLabel),
                let bInit = try newObject(schema, y.parent, path, &g, label: bLabel)
            else { continue }
            let pair =
                try h.context.entity(named: a.name).relationships.first { r in
                    r.isToMany && r.destination == b.name
                        && (try? h.context.entity(named: b.name).relationship(named: r.inverse ?? ""))?.isToMany == true
                }?.name ?? "?"
            let outcome = saving(
                h,
                """
                local b = __E[\(lua(b.name))]:new\(bInit)
                local a = __E[\(lua(a.name))]:new\(aInit)
                a[\(lua(pair))]:add(b)
                """)
            let what = "\(label): new \(a.name) and \(b.name) linked by \(pair) through \(table.name)"
            #expect(outcome == "took", "\(what): \(outcome)")
            let links = try read(path) { db in
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM \(q(table.name)) j, \(q(a.name)) a, \(q(b.name)) b WHERE a.label = ? AND b.label = ?
                        AND ((j.\(q(x.column)) = a.\(q(a.ident!)) AND j.\(q(y.column)) = b.\(q(b.ident!))) OR (j.\(q(y.column)) = a.\(q(a.ident!)) AND j.\(q(x.column)) = b.\(q(b.ident!))))
                        """, arguments: [aLabel, bLabel])
            }
            #expect(links == 1, "\(what): \(links ?? -1) rows")
        }
        #expect(try read(path) { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.isEmpty, "\(label): after the inserts")
    }

    /// Runs `code` and saves: "took", or "refused: " and the error (rolled back).
    func saving(_ h: Harness, _ code: String) -> String {
        h.string(
            """
            (function()
              local ok, err = pcall(function()
                \(code)
                save()
              end)
              if not ok then rollback() end
              return ok and "took" or ("refused: " .. tostring(err))
            end)()
            """) ?? "?"
    }

    /// The Lua table making a new object of table `t` labelled `label`: its key when the
    /// file gives none, and an existing parent for each required foreign key (nil when
    /// there is none).
    private func newObject(_ schema: RandomForeignSchema, _ t: Int, _ path: String, _ g: inout SplitMix64, label: String, besides: String? = nil)
        throws -> String?
    {
        let table = schema.tables[t]
        let q = quoteIdentifier
        var fields = ["score = \(g.int(0...9))", "label = \(lua(label))"]
        if table.hasAlt { fields.append("alt = \(lua("n" + label))") }
        if table.key != .integer, let ident = table.ident {
            let existing = try read(path) { db in try DatabaseValue.fetchAll(db, sql: "SELECT \(q(ident)) FROM \(q(table.name))") }
            let value = RandomForeignSchema.newIdent(table, existing: existing, &g)
            fields.append("[\(lua(ident))] = " + (String.fromDatabaseValue(value).map(lua) ?? "\(Int64.fromDatabaseValue(value) ?? 0)"))
        }
        for key in table.foreignKeys where key.notNull && key.column != besides {
            let parent = schema.tables[key.parent]
            guard
                let value = try read(
                    path,
                    { db in try DatabaseValue.fetchOne(db, sql: "SELECT \(q(key.ref)) FROM \(q(parent.name)) WHERE \(q(key.ref)) IS NOT NULL LIMIT 1")
                    })
            else { return nil }
            fields.append("[\(lua(key.column))] = " + (String.fromDatabaseValue(value).map(lua) ?? "\(Int64.fromDatabaseValue(value) ?? 0)"))
        }
        return "{ " + fields.joined(separator: ", ") + " }"
    }
}
