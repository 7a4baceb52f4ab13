import QuarryEngine
import Testing

/// What `DeferredViews` looks up for a statement, whichever engine asks.
@Suite struct DeferredViewsLookupTests {
    /// Per statement, the views not yet made are looked up by the SQL's names, one lookup
    /// a name: 600 views whose names hold spaces cost what one does (each was searched for
    /// in the SQL, making 3,000 statements take 10 s rather than 0.15 s).
    @Test func lookupsPerStatementDoNotGrowWithTheViews() {
        let sql = "SELECT count(*) FROM \"other table\" WHERE x = 'it''s'"
        var counted: [Int] = []
        for count in [1, 600] {
            let views = DeferredViews((0..<count).map { ("quarry_rows view number \($0)", ["view \($0)"]) })
            #expect(views.take(readBy: sql).isEmpty)
            counted.append(views.lookups)
            #expect(Self.made(views.take(readBy: "SELECT * FROM \"QUARRY_ROWS VIEW NUMBER 0\"")) == ["view 0"])
            #expect(Self.made(views.take(readBy: "SELECT * FROM 'quarry_rows view number 0'")).isEmpty)
        }
        #expect(counted[0] == counted[1] && counted[0] > 0, "\(counted)")
        // SQLite's names in brackets and backquotes, and a single-quoted name where one is due.
        let spellings = DeferredViews([("quarry_rows a b", ["ab"]), ("quarry_rows c]d", ["cd"]), ("quarry_rows `e", ["e"])])
        #expect(Self.made(spellings.take(readBy: "SELECT * FROM [quarry_rows A b]")) == ["ab"])
        #expect(Self.made(spellings.take(readBy: "SELECT * FROM 'quarry_rows c]d'")) == ["cd"])
        #expect(Self.made(spellings.take(readBy: "SELECT * FROM `quarry_rows ``e`")) == ["e"])
    }

    /// The statements of `makings`, in order.
    static func made(_ makings: [DeferredViews.Making]) -> [String] { makings.flatMap { $0 } }
}
