import Foundation
import GRDB
import QuarryModel
import QuarrySQLite
import QuarryStores
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// The reads the layers above the store make through its connection, in Quarry's values:
/// rows, one row, a scalar, a walk over borrowed rows, a prepared read-only query, and SQL
/// functions described without the database library.
@Suite struct StoreReadAPITests {
    /// An in-memory store with a table `t(k, v)` holding one row of each storage class.
    private func makeStore(functions: [SQLFunction] = []) throws -> ObjectContext {
        let context = try OpenFileRequest.open(path: nil, functions: functions)
        try context.connection.database.write { db in
            try db.execute(sql: "CREATE TABLE t (k, v)")
            try db.execute(
                sql: """
                    INSERT INTO t VALUES (1, 42), (2, 2.5), (3, 'text'), (4, x'00ff10'), (5, NULL), (6, 'a' || char(0) || 'b')
                    """)
        }
        return context
    }

    @Test func rowsComeAsValuesByStorageClass() throws {
        let connection = try makeStore().connection
        let rows = try connection.rows("SELECT k, v FROM t ORDER BY k")
        #expect(rows.map { $0[1] } == [.integer(42), .real(2.5), .text("text"), .blob([0, 255, 16]), .null, .text("a")])
        #expect(rows.map { $0[0] } == (1...6).map { Value.integer(Int64($0)) })
    }

    @Test func textAndBlobsReadAsGRDBReadThem() throws {
        let context = try makeStore()
        let ours = try context.connection.rows("SELECT v FROM t ORDER BY k").map { $0[0] }
        let grdbs = try context.connection.database.read { db in try DatabaseValue.fetchAll(db, sql: "SELECT v FROM t ORDER BY k") }.map(Value.init)
        #expect(ours == grdbs)
    }

    @Test func argumentsAreBoundNeverSpliced() throws {
        let connection = try makeStore().connection
        let hostile = "x'); DROP TABLE t; --"
        #expect(try connection.scalar("SELECT ?", arguments: [.text(hostile)]) == .text(hostile))
        #expect(try connection.rows("SELECT k FROM t WHERE v = ?", arguments: [.text(hostile)]).isEmpty)
        #expect(try connection.scalar("SELECT count(*) FROM t") == .integer(6))
        // Booleans and dates are bound as SQLite stores them.
        #expect(try connection.row("SELECT ?, ?", arguments: [.bool(true), .date(60)]) == [.integer(1), .real(60)])
    }

    @Test func oneRowAndAScalarSayWhenThereIsNone() throws {
        let connection = try makeStore().connection
        #expect(try connection.row("SELECT k FROM t WHERE k > 100") == nil)
        #expect(try connection.scalar("SELECT k FROM t WHERE k > 100") == nil)
        #expect(try connection.scalar("SELECT v FROM t WHERE k = 5") == .null)
        #expect(try connection.row("SELECT k, v FROM t WHERE k >= ? ORDER BY k", arguments: [.integer(2)], cached: true) == [.integer(2), .real(2.5)])
        // A cached statement stopped after its first row is reset for the next use.
        #expect(
            try connection.row("SELECT k, v FROM t WHERE k >= ? ORDER BY k", arguments: [.integer(3)], cached: true) == [.integer(3), .text("text")])
    }

    @Test func aWalkLendsEachRowInPlace() throws {
        let context = try makeStore()
        try context.connection.database.write { db in
            try db.execute(sql: "CREATE TABLE n (i)")
            try db.execute(sql: "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1000) INSERT INTO n SELECT i FROM c")
        }
        var sum: Int64 = 0
        var rows = 0
        try context.connection.forEachRow("SELECT i, i * 0.5 FROM n WHERE i > ?", arguments: [.integer(0)]) { row in
            #expect(row.count == 2)
            sum += row.int64(at: 0)
            #expect(row.double(at: 1) == Double(row.int64(at: 0)) / 2)
            rows += 1
        }
        #expect(rows == 1000 && sum == 500_500)
        // A read past the last column is NULL, not a crash.
        try context.connection.forEachRow("SELECT 1") { row in
            #expect(row.value(at: 5) == .null && row.isNull(at: -1) && !row.isNull(at: 0))
        }
    }

    @Test func aRowCountsItsTextAndBlobBytesBeforeTheyAreCopied() throws {
        let connection = try makeStore().connection
        var bytes: [Int] = []
        try connection.forEachRow("SELECT v, 'abcd' FROM t ORDER BY k") { row in bytes.append(row.valueBytes) }
        // 42 and 2.5 count nothing; text, blob and the NUL-holding text count their bytes.
        #expect(bytes == [4, 4, 8, 7, 4, 7])
    }

    @Test func aStoredIntegerIsCheckedNotTrusted() throws {
        let connection = try makeStore().connection
        var keys: [Int64] = []
        try connection.forEachRow("SELECT 7.9 UNION ALL SELECT 3") { row in
            keys.append(try row.storedInt64(at: 0, table: "T", column: "k"))
        }
        #expect(keys == [7, 3])
        #expect(throws: StoreError.unexpectedValue(table: "T", column: "k", found: "text", expected: "an integer")) {
            try connection.forEachRow("SELECT 'seven'") { row in _ = try row.storedInt64(at: 0, table: "T", column: "k") }
        }
        #expect(throws: StoreError.missingColumn(table: "T", column: "k")) {
            try connection.forEachRow("SELECT 1") { row in _ = try row.storedInt64(at: 1, table: "T", column: "k") }
        }
    }

    @Test func sqlitesRefusalKeepsItsCodeAndStatement() throws {
        let connection = try makeStore().connection
        do {
            _ = try connection.rows("SELECT x FROM nowhere")
            Issue.record("a query of a missing table ran")
        } catch let error as StoreError {
            #expect(error.sqliteCode == .SQLITE_ERROR)
            #expect(error.sql == "SELECT x FROM nowhere")
            #expect(error.description.contains("no such table: nowhere"))
        }
        // An error the body throws comes out as it is, and the connection reads on.
        struct Stop: Error, Equatable {}
        #expect(throws: Stop()) { try connection.forEachRow("SELECT k FROM t", cached: true) { _ in throw Stop() } }
        #expect(try connection.rows("SELECT k FROM t", arguments: []).count == 6)
    }

    @Test func aClosedStoreRefusesReads() throws {
        let context = try makeStore()
        context.close()
        #expect(throws: StoreError.closed) { _ = try context.connection.rows("SELECT 1") }
        #expect(throws: StoreError.closed) { _ = try context.connection.prepareReadOnly("SELECT 1") { _ in 0 } }
    }

    @Test func aPreparedQuerySaysWhatItIsBeforeItRuns() throws {
        let connection = try makeStore().connection
        #expect(try connection.prepareReadOnly("  -- nothing\n") { $0 == nil })
        try connection.prepareReadOnly("SELECT upper(v) AS u, k FROM t WHERE k = ?; SELECT 2") { query in
            let query = try #require(query)
            #expect(query.isFollowedByAnother && query.isReadOnly)
            #expect(query.columnNames == ["u", "k"])
            #expect(try query.functionsCalled() == ["upper"])
            #expect(query.accepts([.integer(3)]) && !query.accepts([]) && !query.accepts([.integer(1), .integer(2)]))
            var rows: [[Value]] = []
            try query.forEachRow(arguments: [.integer(3)]) { rows.append($0.values) }
            #expect(rows == [[.text("TEXT"), .integer(3)]])
        }
        try connection.prepareReadOnly("DELETE FROM t") { query in
            let query = try #require(query)
            #expect(!query.isReadOnly && query.columnNames.isEmpty && !query.isFollowedByAnother)
        }
    }

    @Test func aPreparedQueryCannotWriteEvenWhenRun() throws {
        let context = try makeStore()
        do {
            try context.connection.prepareReadOnly("DELETE FROM t") { query in try query?.forEachRow(arguments: []) { _ in } }
            Issue.record("a statement run through prepareReadOnly wrote")
        } catch let error as StoreError {
            #expect(error.sqliteCode?.primaryResultCode == .SQLITE_READONLY, "\(error)")
        }
        #expect(try context.connection.scalar("SELECT count(*) FROM t") == .integer(6))
    }

    @Test func aSwiftSQLFunctionIsInstalledAndReadsQuarrysValues() throws {
        let echo = SQLFunction("echo", argumentCount: 1, deterministic: true) { $0[0] }
        let twice = SQLFunction("twice", argumentCount: 1, deterministic: true) { arguments in
            arguments[0].storedInteger.map { .integer($0 * 2) } ?? .null
        }
        let answer = SQLFunction("answer", argumentCount: 0, deterministic: false) { arguments in
            // Past the last argument, NULL; booleans answer as SQLite stores them.
            arguments[0].isNull && arguments.count == 0 ? .bool(true) : .bool(false)
        }
        // Not the text functions: SQLite calls them through C, which keeps one set for the
        // process, so a stand-in installed here answered `[cd]` for every test running
        // beside it (DifferentialTests saw its folds). FormattingAndSQLTests checks them.
        let connection = try makeStore(functions: [echo, twice, answer]).connection
        let echoed = try connection.rows("SELECT echo(v) FROM t ORDER BY k").map { $0[0] }
        #expect(echoed == [.integer(42), .real(2.5), .text("text"), .blob([0, 255, 16]), .null, .text("a")])
        #expect(try connection.scalar("SELECT twice(?)", arguments: [.integer(21)]) == .integer(42))
        #expect(try connection.scalar("SELECT twice('x')") == .null)
        #expect(try connection.scalar("SELECT answer()") == .integer(1))
    }
}
