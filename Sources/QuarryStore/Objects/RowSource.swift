import QuarryEngine
import QuarryModel

/// How one request's rows are read as cells (`RowBatch`): the first batch reads every
/// column; later ones read the attributes scripts have read so far (C marks them in
/// `attributesRead` as it answers), so a loop reading two attributes of a wide table
/// costs SQLite two columns a row, not all of them. An attribute read for the first time
/// after that is answered by making the object, and is read from the next batch on.
public final class RowSource {
    public let entity: EntityDescription
    /// Where the entity's rows are (the store's mapping).
    let storage: EntityStorage
    /// The attributes that are columns of days (a server's `date`), shown as their day.
    public var dayColumns: Set<String> { storage.dayColumns }
    /// Bit `i` set: attribute `i` of `entity.attributes` has been read (attributes past
    /// the 64th are always read).
    public let attributesRead: UnsafeMutablePointer<UInt64>
    private var batchesRead = 0
    /// Set once an object is made from a batch that was not whole: objects are being
    /// made from these rows (a relationship, a date read each time), so later batches
    /// read whole rows rather than read each batch again whole to make them.
    var objectsMade = false
    private var statements: [StatementKey: String] = [:]

    public init(entity: EntityDescription, storage: EntityStorage) {
        self.entity = entity
        self.storage = storage
        attributesRead = .allocate(capacity: 1)
        attributesRead.pointee = 0
    }

    deinit { attributesRead.deallocate() }

    /// Reads the rows with keys `keys`, in that order (rows gone since are left out).
    public func read(keys: [Int64], context: ObjectContext) throws -> RowBatch {
        defer { batchesRead += 1 }
        return try read(keys: keys, context: context, whole: batchesRead == 0 || objectsMade)
    }

    /// The same, with every column when `whole`, else the attributes read so far.
    public func read(keys: [Int64], context: ObjectContext, whole: Bool) throws -> RowBatch {
        let mask: UInt64 = attributesRead.pointee
        let attributes: [Int] =
            whole ? Array(entity.attributes.indices) : entity.attributes.indices.filter { (index: Int) -> Bool in Self.isRead(index, mask) }
        // Whole rows of an entity with sub-entities end with the entity column, which says
        // what each row's object is without a query for each row (`RowBatch.object(at:)`),
        // and what a row another connection deleted was. Not the other batches, which
        // serve loops that read a few attributes: Quarry's text tag cost such a loop a third.
        let tagged = whole && context.hasSubentities(entity.name)
        return try RowBatch(
            source: self, keys: keys, attributes: attributes, isComplete: whole, tagged: tagged, context: context,
            sql: { (count: Int) -> String in
                self.statement(attributes, whole: whole, tagged: tagged, filter: .keys(Self.roundedUp(count)), dialect: context.sqlDialect)
            }, range: statement(attributes, whole: whole, tagged: tagged, filter: .range, dialect: context.sqlDialect),
            rangeArguments: storage.keyIsPlace ? Self.placeRange : Self.keyRange)
    }

    private static func isRead(_ index: Int, _ mask: UInt64) -> Bool { index >= 64 || mask & (1 << UInt64(index)) != 0 }

    /// A batch's size rounded up to a power of two, so a few statements serve every batch.
    private static func roundedUp(_ count: Int) -> Int {
        let bits: Int = Int.bitWidth - (count - 1).leadingZeroBitCount
        return 1 << bits
    }

    // The range statement's arguments, as functions with their types written out: as
    // closures in a conditional they took the type checker over a second on every build.
    private static func keyRange(_ first: Int64, _ last: Int64) -> [Int64] { [first, last] }
    private static func placeRange(_ first: Int64, _ last: Int64) -> [Int64] {
        let count: Int64 = max(0, last - first + 1)
        let skipped: Int64 = max(0, first - 1)
        return [count, skipped]
    }

    func noteRead(_ name: String) {
        guard let index = entity.attributes.firstIndex(where: { $0.name == name }), index < 64 else { return }
        attributesRead.pointee |= 1 << UInt64(index)
    }

    private enum Filter: Hashable { case keys(Int), range }
    private struct StatementKey: Hashable {
        let whole: Bool
        let tagged: Bool
        let attributes: [Int]
        let filter: Filter
    }

    /// The SELECT for these attributes (all columns when `whole`, then the entity column
    /// when `tagged`, which only whole rows are), made once each.
    private func statement(_ attributes: [Int], whole: Bool, tagged: Bool, filter: Filter, dialect: any SQLDialect) -> String {
        let id = StatementKey(whole: whole, tagged: tagged, attributes: attributes, filter: filter)
        if let sql = statements[id] { return sql }
        let table = storage.table
        let key = "\(table).\(storage.key)"
        let tag = tagged ? ", \(quoteIdentifier(storage.relation)).\(quoteIdentifier(EntityStorage.entityColumn))" : ""
        let columns =
            whole
            ? storage.selection(of: entity, qualifier: storage.relation) + tag
            : ([key] + attributes.map { storage.selected(entity.attributes[$0].name, of: entity, qualifier: storage.relation) }).joined(
                separator: ", ")
        let sql: String
        switch filter {
        // Rows keyed by their places (`keyIsPlace`), which no index finds and which come in
        // their order, are read as far as the last one asked and no further: a view that
        // never ends gives its first rows, and a long one costs the rows up to them.
        case .keys(let n) where storage.keyIsPlace: sql = dialect.rowsByKey(columns, of: storage, count: n) + " LIMIT \(n)"
        case .range where storage.keyIsPlace: sql = "SELECT \(columns) FROM \(table) LIMIT ? OFFSET ?"
        case .keys(let n): sql = dialect.rowsByKey(columns, of: storage, count: n)
        // In key order, which the reader of a range relies on: a view over a hierarchy's
        // table may otherwise come back in the order of its entity column's index.
        case .range: sql = "SELECT \(columns) FROM \(table) WHERE \(key) BETWEEN ? AND ? ORDER BY \(key)"
        }
        statements[id] = sql
        return sql
    }
}
