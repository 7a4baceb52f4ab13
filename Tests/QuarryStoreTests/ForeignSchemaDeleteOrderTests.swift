import QuarryPostgreSQL
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// The order of ON DELETE actions, decided once from a schema's description
/// (`ForeignSchema+DeleteOrder`) under each engine's rule: SQLite's (the key made last acts
/// first, NO ACTION at the statement's end, names in any case) and PostgreSQL's (the key
/// made first acts first, NO ACTION at its turn, actions never deferred).
@Suite struct ForeignSchemaDeleteOrderTests {
    typealias Key = ForeignSchema.ForeignKey
    typealias Referencing = EntityStorage.ReferencingKey

    static func key(_ column: String, _ parent: String, _ action: String, deferred: Bool = false, made: Int?) -> Key {
        Key(columns: [column], parent: parent, parentColumns: [], onDelete: action, deferred: deferred, made: made)
    }

    /// `p`, and children `a` and `b` naming it: `b`'s keys were made between `a`'s.
    static var schema: ForeignSchema {
        var schema = ForeignSchema()
        let column = { (name: String) in ForeignSchema.Column(name: name, declaredType: "INTEGER", notNull: false, hasDefault: false) }
        schema.relations["p"] = .init(name: "p", isView: false, columns: [column("id")], primaryKey: ["id"], foreignKeys: [])
        schema.relations["a"] = .init(
            name: "a", isView: false, columns: ["x", "y", "z", "w"].map(column), primaryKey: [],
            foreignKeys: [
                key("x", "p", "CASCADE", made: 0), key("y", "P", "NO ACTION", made: 3),
                Key(columns: ["z", "w"], parent: "p", parentColumns: [], onDelete: "RESTRICT", made: 4)
            ])
        schema.relations["b"] = .init(
            name: "b", isView: false, columns: ["r", "d", "n"].map(column), primaryKey: [],
            foreignKeys: [
                key("r", "p", "RESTRICT", deferred: true, made: 1), key("d", "p", "NO ACTION", deferred: true, made: 2),
                key("n", "p", "SET NULL", deferred: true, made: nil)
            ])
        return schema
    }

    @Test func sqlitesLastMadeKeyActsFirstAndNoActionWaitsForTheStatementsEnd() {
        let keys = Self.schema.referencingKeys(of: ["p", "a"], order: ForeignKeyOrder.rule)
        // `REFERENCES P` names `p`; a key of two columns and one the engine gave no place are left out.
        #expect(
            keys["p"] == [
                Referencing(child: "a", column: "y", check: .statement), Referencing(child: "b", column: "d", check: .commit),
                Referencing(child: "b", column: "r", check: .restrict), Referencing(child: "a", column: "x", check: .statement)
            ])
        #expect(keys["a"] == nil)
    }

    @Test func postgresFirstMadeKeyActsFirstAndNoActionIsCheckedAtItsTurn() {
        let keys = Self.schema.referencingKeys(of: ["p"], order: PostgresStore.deleteOrder)
        // Names are exact: `P` is another table.
        #expect(
            keys["p"] == [
                Referencing(child: "a", column: "x", check: .statement), Referencing(child: "b", column: "r", check: .restrict),
                Referencing(child: "b", column: "d", check: .commit)
            ])
        #expect(
            Self.schema.referencingKeys(of: ["P"], order: PostgresStore.deleteOrder)["P"] == [Referencing(child: "a", column: "y", check: .restrict)])
        // Only the children asked for.
        #expect(Self.schema.referencingKeys(of: ["p"], children: ["b"], order: PostgresStore.deleteOrder)["p"]?.map(\.column) == ["r", "d"])
    }

    @Test func aDeferredActionIsCheckedAtTheCommitOnSQLiteOnly() {
        let cascade = Self.key("x", "p", "CASCADE", deferred: true, made: 0)
        #expect(ForeignSchema.check(of: cascade, order: ForeignKeyOrder.rule) == .commit)
        #expect(ForeignSchema.check(of: cascade, order: PostgresStore.deleteOrder) == .statement)
        let restrict = Self.key("x", "p", "restrict", deferred: true, made: 0)
        #expect(ForeignSchema.check(of: restrict, order: ForeignKeyOrder.rule) == .restrict)
        #expect(ForeignSchema.check(of: restrict, order: PostgresStore.deleteOrder) == .restrict)
    }
}
