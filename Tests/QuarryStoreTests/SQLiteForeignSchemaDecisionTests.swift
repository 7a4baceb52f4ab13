import QuarryModel
import QuarryPostgreSQL
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarrySQLite
@testable import QuarryStore

/// The decisions made once from a schema's description, for every engine
/// (`ForeignSchema+JoinTables`, `+Attributes`): which tables join two entities, with ends
/// of one column or several, which columns besides the ends a join table may have, and
/// which columns are optional attributes, keys to give or never written.
@Suite struct SQLiteForeignSchemaDecisionTests {
    typealias Column = ForeignSchema.Column
    typealias Key = ForeignSchema.ForeignKey

    static func column(_ name: String, _ type: String, notNull: Bool = true, hasDefault: Bool = false) -> Column {
        Column(name: name, declaredType: type, notNull: notNull, hasDefault: hasDefault)
    }

    static func type(_ column: Column) -> AttributeType { ForeignSchemaReader.attributeType(declared: column.declaredType) }

    /// `region(country, code)` keyed by both, `tag(id)`, and a table `t` of `columns` with `keys`.
    static func schema(_ columns: [Column], _ keys: [Key], primaryKey: [String] = []) -> ForeignSchema {
        var schema = ForeignSchema()
        schema.relations["region"] = .init(
            name: "region", isView: false, columns: [column("country", "TEXT"), column("code", "TEXT")],
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

    @Test func aColumnIsOptionalWhereAnInsertMayLeaveItOut() {
        let required = Self.column("name", "TEXT")
        #expect(required.attribute(.string, isKey: false).isOptional == false)
        // NULL taken, a default filling it, or the row's identity: optional.
        #expect(Self.column("note", "TEXT", notNull: false).attribute(.string, isKey: false).isOptional)
        #expect(Self.column("made", "TIMESTAMP", hasDefault: true).attribute(.date, isKey: false).isOptional)
        #expect(required.attribute(.string, isKey: true).isOptional)
        let attribute = required.attribute(.string, isKey: false, defaultValue: .text("x"))
        #expect(attribute.name == "name" && attribute.type == .string && attribute.defaultValue == .text("x"))
        // A view's column is optional whatever the catalog says of it.
        #expect(required.viewAttribute(.int64).isOptional)
    }

    @Test func aKeyNothingFillsIsOneANewRowMustBeGiven() {
        let columns = [
            Self.column("b", "TEXT"), Self.column("serial", "INTEGER", hasDefault: true), Self.column("a", "TEXT"), Self.column("other", "TEXT")
        ]
        // In the table's order, not the key's; a default, serial or identity fills its column.
        #expect(ForeignSchema.keysToGive(columns, among: ["a", "serial", "b"]) == ["b", "a"])
        #expect(ForeignSchema.keysToGive(columns, among: []).isEmpty)
        var total = Self.column("total", "NUMERIC", hasDefault: true)
        total.generated = true
        let relation = ForeignSchema.Relation(name: "t", isView: false, columns: columns + [total], primaryKey: ["a"], foreignKeys: [])
        #expect(relation.generatedColumns == ["total"])
    }

    /// PostgreSQL's entity of a table from its description: the shared attributes, typed
    /// by the server's types, and what its storage learns of them.
    @Test func aPostgresTableIsMadeFromItsDescription() {
        let columns = [
            Column(name: "code", declaredType: "bpchar", notNull: true, hasDefault: false),
            Column(name: "id", declaredType: "int4", notNull: true, hasDefault: true),
            Column(name: "name", declaredType: "text", notNull: true, hasDefault: false),
            Column(name: "born", declaredType: "date", notNull: false, hasDefault: false),
            Column(name: "doubled", declaredType: "int8", notNull: false, hasDefault: false, generated: true)
        ]
        let relation = ForeignSchema.Relation(name: "person", isView: false, columns: columns, primaryKey: ["code", "id"], foreignKeys: [])
        var storage = EntityStorage(layout: .foreignTable, relation: "person", keyColumn: "_row", dialect: PostgreSQLDialect())
        let entity = PostgresStore.tableEntity(relation, keys: relation.primaryKey, storage: &storage)
        #expect(entity.attributes.map(\.name) == ["code", "id", "name", "born", "doubled"])
        #expect(entity.attributes.map(\.type) == [.string, .int32, .string, .date, .int64])
        // Key columns are optional, as the server or the store gives them; `name` is required.
        #expect(entity.attributes.map(\.isOptional) == [true, true, false, true, true])
        #expect(storage.keysToGive == ["code"])
        #expect(storage.textCasts == ["code"] && storage.dayColumns == ["born"] && storage.generated == ["doubled"])
    }

    @Test func aKeyOfSeveralColumnsThatCannotBeARelationshipIsSaidInOneLine() {
        #expect(
            ForeignSchema.severalColumnsNote("store", Self.toRegion, because: "its column c is not read as an attribute")
                == "store(c, k) references region(country, code): read as its columns, not as a relationship: its column c is not read as an attribute"
        )
    }
}

extension SQLiteForeignSchemaDecisionTests {
    /// Declared types read by SQLite's affinity rules (their words without case, anywhere
    /// in the type: `POINT` holds `INT`), with Quarry's booleans and dates first after
    /// integers; a type with letters other than ASCII is upper-cased as Unicode does it
    /// (`ınt`, with a dotless ı, holds `INT`), as Quarry always read it.
    @Test func declaredTypesAreReadAsSQLitesAffinityRulesReadThem() {
        let expected: [(String, AttributeType)] = [
            ("INTEGER", .int64), ("bigint unsigned", .int64), ("POINT", .int64), ("Boolean", .bool), ("datetime", .date),
            ("TIMESTAMP", .date), ("varchar(20)", .string), ("Clob", .string), ("blob", .binary), ("double precision", .double),
            ("Float", .double), ("numeric(10,2)", .double), ("DECIMAL", .double), ("", .string), ("ınt", .int64), ("ﬂoat", .double), ("REA", .string)
        ]
        for (declared, type) in expected {
            #expect(ForeignSchemaReader.attributeType(declared: declared) == type, "\(declared)")
        }
    }
}
