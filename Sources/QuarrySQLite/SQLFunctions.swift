import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// The functions SQL that a person wrote (`sql()`) may call: SQLite's ordinary ones, by
/// name. Anything else is refused, whatever the library it comes from: `fts3_tokenizer`
/// (installs a pointer given as a blob, and answers a library address with one
/// argument), `load_extension`, functions a build or a later version adds.
public enum SQLFunctions {
    /// SQLite's scalar, aggregate, window, date, JSON and math functions, and the
    /// full-text functions a query on an FTS table calls, as SQLite folds names (lower
    /// case). Operators compile to functions too (`LIKE`, `GLOB`, `MATCH`, `->`, `->>`,
    /// `CURRENT_DATE`). Names of later versions are here so an upgrade keeps them.
    public static let ordinary: Set<String> = {
        let core = """
            abs changes char coalesce concat concat_ws format glob hex if ifnull iif instr \
            last_insert_rowid length like likelihood likely lower ltrim max min nullif \
            octet_length printf quote random randomblob replace round rtrim sign soundex \
            sqlite_version substr substring total_changes trim typeof unhex unicode unistr \
            unistr_quote unlikely upper zeroblob
            """
        let aggregates = "avg count group_concat string_agg sum total median percentile percentile_cont percentile_disc"
        let windows = "row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value"
        let dates = "date time datetime julianday unixepoch strftime timediff current_date current_time current_timestamp"
        let json = """
            json json_array json_array_length json_error_position json_extract json_insert \
            json_object json_patch json_pretty json_quote json_remove json_replace json_set \
            json_type json_valid json_group_array json_group_object -> ->> \
            jsonb jsonb_array jsonb_extract jsonb_insert jsonb_object jsonb_patch jsonb_remove \
            jsonb_replace jsonb_set jsonb_group_array jsonb_group_object
            """
        let math = """
            acos acosh asin asinh atan atan2 atanh ceil ceiling cos cosh degrees exp floor ln \
            log log10 log2 mod pi pow power radians sin sinh sqrt tan tanh trunc
            """
        let fullText = "match snippet offsets matchinfo highlight bm25"
        return Set([core, aggregates, windows, dates, json, math, fullText].joined(separator: " ").split(separator: " ").map(String.init))
    }()

    /// ISO text as a date's seconds, as memory reads it (`text_date.c`), which the SQL of a
    /// comparison with a date column of ISO text calls.
    static let isoSeconds = "quarry_iso_seconds"

    /// What `sql()` may call on SQLite, lower case: the ordinary functions and those the
    /// layouts install on the connection (`storeOwn`: Core Data stores' views' and
    /// triggers', not those that write or remove an external data file, which only a
    /// save's triggers call; the predicate layer allows its own), with the number of a row
    /// of a table without a rowid, which reading its temporary view calls (`KeyNumber`),
    /// and the reading of ISO text a date comparison's SQL calls, so `explain()`'s SQL runs.
    static func allowed(storeOwn: [String]) -> Set<String> {
        ordinary.union(storeOwn.map { $0.lowercased() }).union([KeyNumber.name, KeyNumber.partName, isoSeconds])
    }

    /// The functions `statement` calls, by name (lower case), each once, in the order its
    /// compiled program first names them; none for an `EXPLAIN` (it lists a program and
    /// runs nothing).
    ///
    /// Read from the program `EXPLAIN` lists for the same text, on the same connection:
    /// each call is an instruction (`Function`, `PureFunc`, `AggStep`, ...) whose P4 is
    /// `name(arguments)`, and views, subqueries and common table expressions are compiled
    /// into that one program. Not from an authorizer (`sqlite3_set_authorizer`), which
    /// would see the same names as the statement is prepared: a connection has one, GRDB
    /// installs its own when it opens one (and reads from it whether a statement changed
    /// the schema or began a transaction), and it cannot be read back to be restored.
    /// Functions SQLite inlines (`coalesce`, `iif`, `likely`) make no instruction; they
    /// are its own.
    static func called(by statement: GRDB.Statement, _ db: Database) throws -> [String] {
        guard sqlite3_stmt_isexplain(statement.sqliteStatement) == 0 else { return [] }
        var names: [String] = []
        var seen: Set<String> = []
        let explain = try db.makeStatement(sql: "EXPLAIN " + statement.sql)
        // Listing the program reads no parameter; GRDB still wants one value for each.
        let parameters = Int(sqlite3_bind_parameter_count(explain.sqliteStatement))
        try explain.setArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: parameters)))
        let program = try Row.fetchCursor(explain)
        while let instruction = try program.next() {
            guard let opcode = String.fromDatabaseValue(instruction["opcode"] as DatabaseValue), callsFunction(opcode) else { continue }
            // An operand that does not read as "name(n)" is given whole: no list allows it.
            let operand = String.fromDatabaseValue(instruction["p4"] as DatabaseValue) ?? ""
            let name = functionName(operand) ?? operand
            if seen.insert(name).inserted { names.append(name) }
        }
        return names
    }

    /// Whether an instruction calls the function its P4 names: scalar calls and the
    /// steps of aggregates and windows (names across SQLite versions).
    private static func callsFunction(_ opcode: String) -> Bool {
        opcode.hasPrefix("Function") || opcode.hasPrefix("PureFunc") || opcode.hasPrefix("Agg")
    }

    /// "name(2)" → "name"; nil for any other operand.
    private static func functionName(_ operand: String) -> String? {
        guard operand.hasSuffix(")"), let open = operand.lastIndex(of: "(") else { return nil }
        let count = operand[operand.index(after: open)..<operand.index(before: operand.endIndex)]
        guard open > operand.startIndex, Int(count) != nil else { return nil }
        return operand[..<open].lowercased()
    }
}
