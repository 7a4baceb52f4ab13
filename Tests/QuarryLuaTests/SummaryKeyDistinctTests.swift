import Foundation
import QuarryFetch
import QuarryPredicates
import QuarryShell
import QuarryStore
import Testing

/// A table's primary key holds each value once: summarize's one scan estimated its
/// distinct count past its exact limit (`id` of a crime table's 18,512 rows showed
/// `~18501`), where the count is the answer. A column that merely looks like a key keeps
/// its estimate.
@Suite struct SummaryKeyDistinctTests {
    @Test func aPrimaryKeysDistinctCountIsItsCount() throws {
        let path = try foreignFile(
            """
            CREATE TABLE crimes (id INTEGER PRIMARY KEY AUTOINCREMENT, code INTEGER, bairro TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
            INSERT INTO crimes (code, bairro) SELECT i, 'CENTRO' FROM n;
            CREATE TABLE coded (code TEXT PRIMARY KEY, n INTEGER);
            INSERT INTO coded SELECT 'c' || id, id FROM crimes;
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let context = try StoreOpener.open(path)
        defer { context.close() }
        // An exact limit under the rows' count: the scan estimates every column's distinct.
        let options = SummaryOptions(exactDistinctLimit: 100)
        let summaries = try SummaryRequest(FetchRequest(entityName: "crimes"), options: options).execute(in: context)
        let id = try #require(summaries.first { $0.column == "id" })
        #expect(id.distinct == 3000 && id.count == 3000 && !id.distinctIsEstimate, "\(id)")
        let code = try #require(summaries.first { $0.column == "code" })
        #expect(code.distinctIsEstimate, "a column of distinct values that is no key keeps its estimate: \(code)")
        // A text primary key too, and under a predicate.
        var request = FetchRequest(entityName: "coded")
        request.predicate = try PredicateParser.parse("n > 1000", arguments: PredicateArguments([]))
        let coded = try SummaryRequest(request, options: options).execute(in: context)
        let key = try #require(coded.first { $0.column == "code" })
        #expect(key.distinct == 2000 && key.count == 2000 && !key.distinctIsEstimate, "\(key)")
        #expect(try sqlAnswer(path, "SELECT count(DISTINCT code) FROM coded WHERE n > 1000") == "2000")
    }
}
