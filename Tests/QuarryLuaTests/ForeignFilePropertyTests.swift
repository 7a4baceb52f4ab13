import Foundation
import GRDB
import QuarryLua
import QuarryPredicates
import QuarrySQLite
import QuarryShell
import QuarryStore
import Testing

/// Issue 29's "done when": generated files Quarry did not create, each with a date column
/// in one of every format, booleans in one of every spelling, UUIDs in one of every
/// layout, a foreign key with one of every ON DELETE action, a join table, and one of
/// every naming style. Rows are changed through Quarry by the conventional names and
/// saved; plain SQL then checks that every value keeps its column's format, that the join
/// table holds the links made, that deleting parents leaves the rows SQLite itself leaves
/// with `foreign_keys=ON` (or is refused where SQLite refuses), and that `sqlite_master`
/// is unchanged.
@Suite struct ForeignFilePropertyTests {
    typealias Generator = ForeignValueFormatTests.Generator
    typealias DateFormat = ForeignValueFormatTests.DateFormat
    typealias UUIDFormat = ForeignValueFormatTests.UUIDFormat

    /// How a file names its tables and key columns, and the relationship name that follows.
    struct Style {
        let artist: String, album: String, tag: String, join: String
        let artistKey: String, albumKey: String, tagKey: String
        /// The album's relationship to its artist.
        let relationship: String
        static let all: [Style] = [
            Style(
                artist: "artist", album: "album", tag: "tag", join: "album_tag", artistKey: "artist_id", albumKey: "album_id", tagKey: "tag_id",
                relationship: "artist"),
            Style(
                artist: "Artist", album: "Album", tag: "Tag", join: "AlbumTag", artistKey: "ArtistId", albumKey: "AlbumId", tagKey: "TagId",
                relationship: "artist"),
            Style(
                artist: "artist", album: "album", tag: "tag", join: "albumTag", artistKey: "artistID", albumKey: "albumID", tagKey: "tagID",
                relationship: "artist"),
            Style(
                artist: "Artist", album: "Album", tag: "Tag", join: "AlbumTag", artistKey: "OwnerId", albumKey: "AlbumId", tagKey: "TagId",
                relationship: "owner")
        ]
    }

    static let actions = ["NO ACTION", "RESTRICT", "CASCADE", "SET NULL", "SET DEFAULT"]
    static let booleans: [(String, String)?] = [
        nil, ("true", "false"), ("TRUE", "FALSE"), ("True", "False"), ("Y", "N"), ("y", "n"),
        ("yes", "no"), ("T", "F"), ("on", "off")
    ]

    /// Every row of every table, as plain SQL quotes them.
    private func rows(_ path: String, _ s: Style) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try [s.artist, s.album, s.tag, s.join].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(quoteIdentifier(table)) ORDER BY rowid").map { row in
                    table + ": " + row.databaseValues.map { "\($0)" }.joined(separator: "|")
                }
            }
        }
    }

    @Test(arguments: 0..<40) func changedRowsKeepFormatsKeysAndSchema(_ seed: Int) throws {
        var g = Generator(state: UInt64(seed) &* 2_654_435_761 &+ 17)
        let style = Style.all[seed % Style.all.count]
        let date = DateFormat.all[seed % DateFormat.all.count]
        let boolean = Self.booleans[seed % Self.booleans.count]
        let uuid = UUIDFormat.all[seed % UUIDFormat.all.count]
        let action = Self.actions[seed % Self.actions.count]
        let joinAction = Self.actions[(seed / 5) % Self.actions.count]
        let label =
            "seed \(seed): \(style.album).\(style.artistKey) ON DELETE \(action), \(style.join) ON DELETE \(joinAction), \(date), \(String(describing: boolean)), \(uuid)"
        let q = quoteIdentifier
        func bytes() -> [UInt8] { (0..<16).map { _ in UInt8(truncatingIfNeeded: g.next()) } }
        func stored(_ value: Bool) -> DatabaseValue { boolean.map { (value ? $0.0 : $0.1).databaseValue } ?? (value ? 1 : 0).databaseValue }

        // The file, as its owner made it.
        let path = try foreignFile(
            """
            CREATE TABLE \(q(style.artist)) (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE \(q(style.album)) (id INTEGER PRIMARY KEY, title TEXT,
              \(q(style.artistKey)) INTEGER DEFAULT 1 REFERENCES \(q(style.artist))(id) ON DELETE \(action),
              released \(["DATETIME", "TIMESTAMP", "DATE"][seed % 3]), live BOOLEAN, code \(uuid.declared));
            CREATE TABLE \(q(style.tag)) (id INTEGER PRIMARY KEY, label TEXT);
            CREATE TABLE \(q(style.join)) (\(q(style.albumKey)) INTEGER REFERENCES \(q(style.album))(id) ON DELETE \(joinAction),
              \(q(style.tagKey)) INTEGER REFERENCES \(q(style.tag))(id) ON DELETE \(joinAction), PRIMARY KEY (\(q(style.albumKey)), \(q(style.tagKey))));
            """)
        let (artists, albums, tags) = (g.int(2...5), g.int(3...15), g.int(2...4))
        var links: Set<[Int]> = []
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for i in 1...artists { try db.execute(sql: "INSERT INTO \(q(style.artist)) VALUES (?, ?)", arguments: [i, "artist \(i)"]) }
            for i in 1...tags { try db.execute(sql: "INSERT INTO \(q(style.tag)) VALUES (?, ?)", arguments: [i, "tag \(i)"]) }
            for i in 1...albums {
                try db.execute(
                    sql:
                        "INSERT INTO \(q(style.album)) VALUES (?, ?, ?, \(date.ownerSQL.replacingOccurrences(of: "?1", with: "?4")), ?, \(uuid.ownerSQL.replacingOccurrences(of: "?1", with: "?6")))",
                    arguments: [i, "album \(i)", g.int(0...5) == 0 ? nil : g.int(1...artists), g.instant(), stored(g.int(0...1) == 1), Data(bytes())])
                for t in 1...tags where g.int(0...2) == 0 { links.insert([i, t]) }
            }
            for link in links { try db.execute(sql: "INSERT INTO \(q(style.join)) VALUES (?, ?)", arguments: [link[0], link[1]]) }
        }
        try queue.close()
        let schema = try schemaRows(path)

        // Changed through Quarry, by the conventional names.
        let h = try Harness(context: try StoreOpener.open(path))
        let (artist, album, tag, rel) = (style.artist, style.album, style.tag, style.relationship)
        for i in 1...artists {
            let count = try DatabaseQueue(path: path).read { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(q(style.album)) WHERE \(q(style.artistKey)) = ?", arguments: [i]) ?? 0
            }
            #expect(h.string("#\(artist):get(\(i)).albums .. ',' .. count('\(album)', '\(rel).id == \(i)')") == "\(count),\(count)", "\(label)")
        }
        var dates: [Int: Double] = [:]
        var flags: [Int: Bool] = [:]
        var codes: [Int: [UInt8]] = [:]
        for _ in 0..<g.int(1...4) {
            let id = g.int(1...albums)
            let seconds = Double(g.instant()) + 0.25
            let flag = g.int(0...1) == 1
            let code = bytes()
            h.run(
                """
                local a = \(album):get(\(id)); a.released = date(\(seconds)); a.live = \(flag)
                a.code = "\(UUIDFormat.hex(code, upper: g.int(0...1) == 1, hyphens: true))"; a.\(rel) = \(artist):get(\(g.int(1...artists)))
                """)
            (dates[id], flags[id], codes[id]) = (seconds, flag, code)
        }
        let newSeconds = Double(g.instant()) + 0.25
        let newCode = bytes()
        h.run(
            """
            __new = \(album):new{ title = "new", released = date(\(newSeconds)), live = true, code = "\(UUIDFormat.hex(newCode, upper: false, hyphens: true))" }
            __new.\(rel) = \(artist):get(1)
            """)
        (dates[albums + 1], flags[albums + 1], codes[albums + 1]) = (newSeconds, true, newCode)
        // Links added and removed through both sides of the pair.
        for _ in 0..<g.int(1...4) {
            let (a, t) = (g.int(1...albums + 1), g.int(1...tags))
            let add = g.int(0...1) == 1
            let owner = a == albums + 1 ? "__new" : "\(album):get(\(a))"
            if g.int(0...1) == 0 {
                h.run("\(owner).tags:\(add ? "add" : "remove")(\(tag):get(\(t)))")
            } else {
                h.run("\(tag):get(\(t)).albums:\(add ? "add" : "remove")(\(owner))")
            }
            if add { links.insert([a, t]) } else { links.remove([a, t]) }
        }
        h.run("save()")

        // Plain SQL: the formats, the links, the schema.
        let check = try DatabaseQueue(path: path)
        try check.read { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, typeof(released) AS kind, released AS v, live, code FROM \(q(style.album))") {
                let id: Int = row["id"]
                #expect(row["kind"] == date.storageClass, "\(label): album \(id) \(row)")
                if let pattern = date.pattern, let text: String = row["v"] {
                    #expect(text.range(of: pattern, options: .regularExpression) != nil, "\(label): album \(id) \(text)")
                }
                let live: DatabaseValue = row["live"]
                #expect(live == stored(true) || live == stored(false), "\(label): album \(id) live \(live)")
                if let flag = flags[id] { #expect(live == stored(flag), "\(label): album \(id) live \(live)") }
                if let code = codes[id] {
                    #expect(row["code"] == uuid.stored(code), "\(label): album \(id) code \(String(describing: row["code"] as DatabaseValue))")
                }
            }
            for (id, seconds) in dates {
                let read = try Double.fetchOne(
                    db,
                    sql:
                        "SELECT CAST(\(date.secondsSQL.replacingOccurrences(of: "v", with: "released")) AS REAL) FROM \(q(style.album)) WHERE id = ?",
                    arguments: [id])
                #expect(abs((read ?? .nan) - date.kept(seconds)) < 0.002, "\(label): album \(id) read \(String(describing: read)) for \(seconds)")
            }
            let saved = try Row.fetchAll(db, sql: "SELECT \(q(style.albumKey)), \(q(style.tagKey)) FROM \(q(style.join))").map {
                [$0[0] as Int, $0[1] as Int]
            }
            #expect(Set(saved) == links, "\(label)")
            #expect(
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(q(style.album)) WHERE title = 'new' AND \(q(style.artistKey)) = 1") == 1, "\(label)"
            )
        }
        try check.close()
        #expect(try schemaRows(path) == schema, "\(label): sqlite_master changed")

        // Deleting parents: Quarry on the file, SQLite with foreign_keys=ON on a copy (whose
        // join table's links go with either end, as Quarry's do: `JoinLinksOracle`).
        let copy = path + ".copy"
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try JoinLinksOracle.linksGoWithEitherEnd(copy, as: h.context)
        let (goneArtist, goneTag) = (g.int(1...artists), g.int(1...tags))
        var sqliteConfiguration = Configuration()
        sqliteConfiguration.foreignKeysEnabled = true
        let sqlite = try DatabaseQueue(path: copy, configuration: sqliteConfiguration)
        let sqliteDeleted: Bool
        do {
            try sqlite.write { db in
                try db.execute(sql: "DELETE FROM \(q(style.artist)) WHERE id = ?", arguments: [goneArtist])
                try db.execute(sql: "DELETE FROM \(q(style.tag)) WHERE id = ?", arguments: [goneTag])
            }
            sqliteDeleted = true
        } catch {
            sqliteDeleted = false
        }
        try sqlite.close()
        let quarryDeleted = h.string(
            """
            (function()
              local ok = pcall(function() \(artist):get(\(goneArtist)):delete(); \(tag):get(\(goneTag)):delete(); save() end)
              if not ok then rollback() end
              return ok
            end)()
            """)
        #expect(quarryDeleted == String(sqliteDeleted), "\(label): deleting artist \(goneArtist) and tag \(goneTag)")
        #expect(try rows(path, style) == rows(copy, style), "\(label): deleting artist \(goneArtist) and tag \(goneTag)")
        #expect(try schemaRows(path) == schema, "\(label): sqlite_master changed")
    }
}
