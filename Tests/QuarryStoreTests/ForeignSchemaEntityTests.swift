import QuarryModel
import QuarryPostgreSQL
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// A table's entity made once for every engine (`ForeignSchema+Entities`) from its
/// description, what its rows are known by (`RowIdentity`) and the engine's answers
/// (`ForeignSchemaEngine`): each answer lands where the storage keeps it.
@Suite struct ForeignSchemaEntityTests {
    /// An engine of declared types named after Quarry's, with every answer visible.
    struct NamedTypes: ForeignSchemaEngine {
        func attributeType(_ column: ForeignSchema.Column) -> AttributeType { AttributeType(rawValue: column.declaredType) ?? .string }
        func isIntegerKey(_ column: ForeignSchema.Column) -> Bool { column.declaredType == "int64" }
        func computedColumnTypes(_ view: String, _ columns: [String]) -> [AttributeType] { columns.map { _ in .double } }
        func noteType(of column: ForeignSchema.Column, in storage: inout EntityStorage) {
            if column.declaredType == "date" { storage.dayColumns.insert(column.name) }
        }
        func columnDefault(of column: ForeignSchema.Column, as type: AttributeType) -> ForeignColumnDefault.Kind? {
            column.defaultText.flatMap { ForeignColumnDefault.kind(of: $0, as: type) }
        }
        func setDefault(_ declared: String, of column: ForeignSchema.Column) -> String? {
            ForeignColumnDefault.literal(declared).map { _ in declared }
        }
        func numericDates(of storage: EntityStorage, among attributes: [AttributeDescription]) -> [String: EntityStorage.NumericDateScale] {
            Dictionary(uniqueKeysWithValues: attributes.filter { $0.type == .date && $0.name.hasSuffix("_ms") }.map { ($0.name, .milliseconds) })
        }
        func viewRows(_ view: String, names: [String], types: [AttributeType], taken: Set<String>)
            -> (relation: String, key: String, byPlace: Bool, making: DeferredViews.Making)?
        { nil }
    }

    static func column(_ name: String, _ type: String, notNull: Bool = false, defaultText: String? = nil, generated: Bool = false)
        -> ForeignSchema.Column
    {
        ForeignSchema.Column(
            name: name, declaredType: type, notNull: notNull, hasDefault: defaultText != nil || generated, defaultText: defaultText,
            generated: generated)
    }

    static let relation = ForeignSchema.Relation(
        name: "event", isView: false,
        columns: [
            column("id", "int64", notNull: true, defaultText: "0"),
            column("code", "string", notNull: true),
            column("made", "string", defaultText: "CURRENT_TIMESTAMP"),
            column("n", "int64", notNull: true, defaultText: "7"),
            column("at_ms", "date"),
            column("twice", "int64", generated: true),
            column("wide", "string", generated: true)
        ], primaryKey: ["id", "code"], foreignKeys: [])

    /// What a table's rows are known by is decided from its description, the engine
    /// saying only which types are integer keys: one integer column is the rows' own
    /// number; a key of another type or of several columns asks the engine for one; no
    /// key, only where the engine gives rows a number unasked.
    @Test func whatRowsAreKnownByIsDecidedOnce() {
        func relation(_ key: [String]) -> ForeignSchema.Relation {
            ForeignSchema.Relation(
                name: "t", isView: false, columns: [Self.column("id", "int64"), Self.column("code", "string")],
                primaryKey: key, foreignKeys: [])
        }
        #expect(ForeignSchema.rowKey(of: relation(["id"]), engine: NamedTypes()) == .integerKey("id"))
        #expect(ForeignSchema.rowKey(of: relation(["code"]), engine: NamedTypes()) == .numbered(keys: ["code"]))
        #expect(ForeignSchema.rowKey(of: relation(["code", "id"]), engine: NamedTypes()) == .numbered(keys: ["code", "id"]))
        #expect(ForeignSchema.rowKey(of: relation([]), engine: NamedTypes()) == .unkeyed)
        // The same declared type is an integer key to one engine and not to the other.
        let declared = ForeignSchema.Relation(name: "t", isView: false, columns: [Self.column("id", "INTEGER")], primaryKey: ["id"], foreignKeys: [])
        #expect(ForeignSchema.rowKey(of: declared, engine: NamedTypes()) == .numbered(keys: ["id"]))
        let server = ForeignSchema.Relation(name: "t", isView: false, columns: [Self.column("id", "int4")], primaryKey: ["id"], foreignKeys: [])
        #expect(ForeignSchema.rowKey(of: server, engine: PostgresForeignSchema(schema: "public")) == .integerKey("id"))
        #expect(ForeignSchema.rowKey(of: declared, engine: PostgresForeignSchema(schema: "public")) == .numbered(keys: ["id"]))
    }

    @Test func theEnginesAnswersLandInTheStorage() throws {
        let identity = ForeignSchema.RowIdentity(
            storage: EntityStorage(layout: .foreignTable, relation: "event", keyColumn: "id", dialect: nil), keys: ["id"], toGive: ["code"])
        // The last column left out, as an engine keeping fewer columns does.
        let kept = Array(Self.relation.columns.dropLast())
        let (entity, storage) = ForeignSchema.tableEntity(Self.relation, columns: kept, knownBy: identity, engine: NamedTypes())
        #expect(entity.attributes.map(\.name) == ["id", "code", "made", "n", "at_ms", "twice"])
        #expect(entity.attributes.map(\.type) == [.int64, .string, .string, .int64, .date, .int64])
        // The key is optional and takes no default (the engine gives it); `code` must be given;
        // `n`, NOT NULL with a constant default, is required: a new object starts with 7.
        #expect(entity.attributes.map(\.isOptional) == [true, false, true, false, true, true])
        #expect(entity.attributes.map(\.defaultValue) == [nil, nil, nil, .integer(7), nil, nil])
        #expect(storage.keysToGive == ["code"])
        #expect(storage.clockDefaults == ["made": "CURRENT_TIMESTAMP"])
        // Computed columns among those kept only.
        #expect(storage.generated == ["twice"])
        #expect(storage.dayColumns == ["at_ms"] && storage.numericDates == ["at_ms": .milliseconds])
        #expect(storage.keyColumn == "id" && storage.relation == "event")
    }

    @Test func everyKeyColumnIsTheRowsIdentityWhenTheEngineSaysSo() {
        // As a keyed table's: every key column optional and given by the store, none
        // defaulted; `n` (NOT NULL DEFAULT 7) is required as ever.
        let identity = ForeignSchema.RowIdentity(
            storage: EntityStorage(layout: .foreignTable, relation: "event", keyColumn: "_row", dialect: nil), keys: ["id", "code"],
            toGive: ["id", "code"])
        let (entity, storage) = ForeignSchema.tableEntity(Self.relation, knownBy: identity, engine: NamedTypes())
        #expect(entity.attributes.map(\.isOptional) == [true, true, true, false, true, true, true])
        #expect(entity.attributes.first?.defaultValue == nil)
        #expect(storage.keysToGive == ["code"])
        #expect(storage.generated == ["twice", "wide"])
    }
}
