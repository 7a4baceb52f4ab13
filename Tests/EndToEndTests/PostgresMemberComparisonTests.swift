import Foundation
import QuarryTestSupport
import Testing

/// A member compared with its own object (`ANY flights.distance > id * 100`: the right
/// side is the airline's), drawn at random with ANY, ALL and NONE, arithmetic on either
/// side and a path through a to-one (`ANY airlines.flights.day > day`), answered alike by
/// Quarry's SQL and by `p:matches` over every object, on a SQLite file and on PostgreSQL,
/// and as psql's own count of the same question in plain SQL. Against a real server
/// (`PostgresServer`): the test fails, never skips, without one.
@Suite struct PostgresMemberComparisonTests {
    /// One question: its predicate, the entity it asks of, and psql's plain SQL for it.
    struct Question {
        let entity: String
        let predicate: String
        let sql: String
    }

    /// `count` questions from `seed`, half of airlines (members: their flights), half of
    /// flights (members: the flights of their airline, compared with the flight's own).
    static func questions(seed: UInt64, count: Int) -> [Question] {
        var state = seed
        func pick<T>(_ choices: [T]) -> T {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return choices[Int((state >> 33) % UInt64(choices.count))]
        }
        // Each side as the predicate says it and as plain SQL says it (`m`: the member,
        // `p`: the object); a division is a real one in both.
        // A member's side names one key path of the member (another would be the object's own).
        let memberSides = [
            ("distance", "m.distance"), ("flight", "m.flight"), ("day * 100", "m.day * 100"),
            ("distance / 4 + 1", "m.distance / 4.0 + 1"), ("month - 3", "m.month - 3")
        ]
        let airlineSides = [("id * 100", "p.id * 100"), ("id + 1500", "p.id + 1500"), ("id * id * 10", "p.id * p.id * 10"), ("id", "p.id")]
        let flightSides = [
            ("distance", "p.distance"), ("flight + 100", "p.flight + 100"), ("day * 50", "p.day * 50"),
            ("distance / 2", "p.distance / 2.0"), ("day", "p.day")
        ]
        let operators = [("<", "<"), (">", ">"), ("<=", "<="), (">=", ">="), ("==", "="), ("!=", "<>")]
        return (0..<count).map { i in
            let (memberSide, memberSQL) = pick(memberSides)
            var (op, opSQL) = pick(operators)
            // Equality of real divisions is left out: both engines agree, but by luck of rounding.
            if memberSide.contains("/"), op == "==" || op == "!=" { (op, opSQL) = ("<", "<") }
            if i % 2 == 0 {
                let (own, ownSQL) = pick(airlineSides)
                let quantifier = pick(["ANY", "ALL", "NONE"])
                let condition = "\(memberSQL) \(opSQL) \(ownSQL)"
                let members = "FROM flights m WHERE m.carrier = p.carrier"
                let sql: String
                switch quantifier {
                case "ANY": sql = "EXISTS (SELECT 1 \(members) AND \(condition))"
                case "NONE": sql = "NOT EXISTS (SELECT 1 \(members) AND \(condition))"
                default: sql = "NOT EXISTS (SELECT 1 \(members) AND NOT (\(condition)))"
                }
                return Question(
                    entity: "airlines", predicate: "\(quantifier) flights.\(memberSide) \(op) \(own)",
                    sql: "SELECT count(*) FROM airlines p WHERE \(sql)")
            }
            let (own, ownSQL) = pick(flightSides)
            let quantifier = pick(["ANY", "NONE"])
            let exists = "EXISTS (SELECT 1 FROM flights m WHERE m.carrier = p.carrier AND \(memberSQL) \(opSQL) \(ownSQL))"
            // January's flights only: each reads its airline's hundreds of flights in memory.
            return Question(
                entity: "flights", predicate: "month == 1 AND \(quantifier) airlines.flights.\(memberSide) \(op) \(own)",
                sql: "SELECT count(*) FROM flights p WHERE p.month = 1 AND \(quantifier == "ANY" ? "" : "NOT ")\(exists)")
        }
    }

    @Test(arguments: [UInt64(7), 2026])
    func membersComparedWithTheirOwnObjectAnswerAlike(seed: UInt64) async throws {
        let sandbox = try Sandbox()
        let questions = Self.questions(seed: seed, count: 8)
        let lua = questions.map { q in
            let quoted = q.predicate.replacingOccurrences(of: "'", with: "\\'")
            return "ask('\(q.entity)', '\(quoted)')"
        }.joined(separator: "\n")
        let (lite, postgres, url) = try await PostgresStoreTests.onBoth(
            sandbox,
            """
            local all = { airlines = fetch("airlines"), flights = fetch("flights") }
            function ask(entity, text)
              local p, n = predicate(text), 0
              for _, o in ipairs(all[entity]) do if p:matches(o) then n = n + 1 end end
              print(count(entity, text), n)
            end
            \(lua)
            """)
        #expect(lite.status == 0 && postgres.status == 0, "SQLite:\n\(lite)\nPostgreSQL:\n\(postgres)")
        let plain = try await PostgresDecimalTests.psqlRows(sandbox, url, "SELECT " + questions.map { "(\($0.sql))" }.joined(separator: ", "))
        let want = plain.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\t").map(String.init)
        #expect(want.count == questions.count, "\(plain)")
        for (i, question) in questions.enumerated() {
            let expected = "\(want[safe: i] ?? "-")\t\(want[safe: i] ?? "-")"
            #expect(
                postgres.lines[safe: i] == expected,
                "PostgreSQL, \(question.entity) \(question.predicate): SQL, memory \(postgres.lines[safe: i] ?? "-"); psql \(want[safe: i] ?? "-")")
            #expect(
                lite.lines[safe: i] == expected,
                "SQLite, \(question.entity) \(question.predicate): SQL, memory \(lite.lines[safe: i] ?? "-"); psql \(want[safe: i] ?? "-")")
        }
        // Not all the same answer: the questions tell objects apart.
        #expect(Set(want).count > 2, "\(want)")
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
