@testable import QuarryStore
import Testing

/// The decisions made once from a schema's description, for every engine
/// (`ForeignSchema+JoinTables`): which tables join two entities, with ends of one column
/// or several, and which columns besides the ends a join table may have.
@Suite struct ForeignSchemaDecisionTests {
    typealias Column = ForeignSchema.Column
    typealias Key = ForeignSchema.ForeignKey

    static func column(_ name: String, _ type: String, notNull: Bool = true, hasDefault: Bool = false) -> Column {
        Column(name: name, declaredType: type, notNull: notNull, hasDefault: hasDefault)
    }

    static func type(_ column: Column) -> AttributeType { ForeignSchemaReader.attributeType(declared: column.declaredType) }

    /// `region(country, code)` keyed by both, `tag(id)`, and a table `t` of `columns` with `keys`.
    static func schema(_ columns: [Column], _ keys: [Key], primaryKey: [String] = []) -> ForeignSchema {
        var schema = ForeignSchema()
        schema.relations["region"] = .init(name: "region", isView: false, columns: [column("country", "TEXT"), column("code", "TEXT")],
                                          primaryKey: ["country", "code"], foreignKeys: [])
        schema.relations["tag"] = .init(name: "tag", isView: false, columns: [column("id", "INTEGER")], primaryKey: ["id"], foreignKeys: [])
        schema.relations["t"] = .init(name: "t", isView: false, columns: columns, primaryKey: primaryKey, foreignKeys: keys)
        return schema
    }

    static let toRegion = Key(columns: ["c", "k"], parent: "region", parentColumns: ["country", "code"], onDelete: "NO ACTION")
    static let toTag = Key(columns: ["tag_id"], parent: "tag", parentColumns: [], onDelete: "CASCADE")
    static let keyColumns = [column("k", "TEXT"), column("c", "TEXT"), column("tag_id", "INTEGER")]

    @Test func aTableOfTwoKeysIsAJoinTableWhateverTheirWidth() throws {
        let schema = Self.schema(Self.keyColumns, [Self.toTag, Self.toRegion], primaryKey: ["c", "k", "tag_id"])
        let join = try #require(schema.joinTable("t", isEnd: { _ in true }, type: Self.type))
        // In the order of their first columns; the key of several columns names the region's whole key.
        #expect(join.first.columns == ["c", "k"] && join.second.columns == ["tag_id"])
        #expect(join.required.isEmpty)
        #expect(schema.namesPrimaryKey(join.first) && schema.namesPrimaryKey(join.second))
        // Paired with the parent's columns in the parent's key order, whatever the key's.
        let swapped = Key(columns: ["k", "c"], parent: "region", parentColumns: ["code", "country"], onDelete: "NO ACTION")
        #expect(schema.columnPairs(of: swapped, in: ["country", "code"]).map(\.column) == ["c", "k"])
        // Not an end the engine can join: no join table.
        #expect(schema.joinTable("t", isEnd: { $0.parent == "tag" }, type: Self.type) == nil)
    }

    @Test func besidesItsEndsAJoinTableHasAPositionAndTimesOnly() throws {
        let position = Self.column("position", "INTEGER", notNull: false)
        let stamp = Self.column("last_update", "TIMESTAMP")
        let filled = Self.column("created", "TIMESTAMP", hasDefault: true)
        let both = Self.schema(Self.keyColumns + [position, stamp, filled], [Self.toRegion, Self.toTag])
        // A required time with no default makes the pair read only.
        #expect(both.joinTable("t", isEnd: { _ in true }, type: Self.type)?.required == ["last_update"])
        // A value of its own (required, not filled) is no join table's; nor two positions.
        let valued = Self.schema(Self.keyColumns + [Self.column("stars", "INTEGER")], [Self.toRegion, Self.toTag])
        #expect(valued.joinTable("t", isEnd: { _ in true }, type: Self.type) == nil)
        let two = Self.schema(Self.keyColumns + [position, Self.column("rank", "INTEGER", notNull: false)], [Self.toRegion, Self.toTag])
        #expect(two.joinTable("t", isEnd: { _ in true }, type: Self.type) == nil)
        // The table's own key is left aside when the engine says it is one.
        let keyed = Self.schema([Self.column("id", "INTEGER")] + Self.keyColumns, [Self.toRegion, Self.toTag], primaryKey: ["id"])
        #expect(keyed.joinTable("t", isEnd: { _ in true }, type: Self.type) == nil)
        #expect(keyed.joinTable("t", isEnd: { _ in true }, ownKey: "id", type: Self.type) != nil)
    }

    @Test func endsThatShareAColumnOrAThirdKeyMakeNoJoinTable() {
        let overlapping = Key(columns: ["c", "tag_id"], parent: "region", parentColumns: ["country", "code"], onDelete: "NO ACTION")
        #expect(Self.schema(Self.keyColumns, [overlapping, Self.toTag]).joinTable("t", isEnd: { _ in true }, type: Self.type) == nil)
        let third = Key(columns: ["k"], parent: "tag", parentColumns: ["id"], onDelete: "NO ACTION")
        #expect(Self.schema(Self.keyColumns, [Self.toRegion, Self.toTag, third]).joinTable("t", isEnd: { _ in true }, type: Self.type) == nil)
    }

    @Test func aKeyOfSeveralColumnsOutsideAJoinTableIsSaidInOneLine() {
        #expect(ForeignSchema.severalColumnsNote("store", Self.toRegion)
            == "store(c, k) references region(country, code): a foreign key of 2 columns is read as its columns, not as a relationship (a relationship is kept in one column)")
    }
}
