import Foundation
import QuarryModel
import QuarryTestSupport
import Testing

@testable import QuarryPostgreSQL

/// `numeric` values at PostgreSQL's bounds (issue 81): arithmetic past the type's digits
/// is refused with the words Quarry's decimals refuse the same result with, and a
/// `numeric` no double holds, made one, in one short line instead of its every digit.
@Suite struct PostgresNumericBoundsTests {
    @Test func numericsAtTheBoundsAreRefusedInOneLine() throws {
        let connection = try PostgresConnection(url: try PostgresServer.database("numericbounds"))
        try connection.execute("CREATE TABLE nt (id int PRIMARY KEY, x numeric)")
        try connection.execute("INSERT INTO nt VALUES (1, '1e131071'), (2, '1e-16383'), (3, '-1e131071')")
        func refusal(_ sql: String) throws -> PostgresFailure {
            let error = #expect(throws: StoreError.self, "\(sql) was not refused") { try connection.execute(sql) }
            guard case .engine(let failure as PostgresFailure)? = error else {
                throw StoreError.database(message: "\(sql): \(String(describing: error))")
            }
            return failure
        }
        let overflow = try refusal("SELECT count(*) FROM nt WHERE x * 10 > 1")
        #expect(overflow.sqlState == "22003")
        #expect(overflow.said == ExactDecimal.Failure.overflow.description, "\(overflow.said)")
        let cases = [(2, "1e-16383"), (1, "1e131071"), (3, "-1e131071")]
        for (id, magnitude) in cases {
            let failure = try refusal("SELECT (x)::float8 / 2 > 0 FROM nt WHERE id = \(id)")
            // Still 22003, which a save's writer names by its column (`PostgresNumericOverflow`).
            #expect(failure.sqlState == "22003")
            #expect(failure.said.contains("a decimal of about \(magnitude) is past what a double holds"), "\(failure.said)")
            let line = "\(StoreError.engine(failure))"
            #expect(!line.contains("\n") && line.count < 300, "\(line.count) characters: \(line.prefix(300))")
        }
        #expect(PostgresNumericBounds.magnitude(of: "0.5") == "1e-1")
        #expect(PostgresNumericBounds.magnitude(of: "-12.5") == "-1e1")
        #expect(PostgresNumericBounds.magnitude(of: "0.000") == nil)
        #expect(PostgresNumericBounds.magnitude(of: "1e5") == nil)
    }
}
