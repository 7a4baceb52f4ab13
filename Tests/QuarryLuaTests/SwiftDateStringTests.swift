import QuarryShell
import Testing

/// A string compared with a date key (`hire_date > %@` given "1995-01-01") is a date to
/// Quarry, and the `#Predicate` beside it captures a `Date`; the NSPredicate line passes the
/// same date as a `%@` argument (`Date(timeIntervalSinceReferenceDate: …) as NSDate`), as
/// passing `date(...)` writes it, rather than comparing a date with a string, which an
/// app's store answers with nothing.
@Suite struct SwiftDateStringTests {
    @Test func aStringReadAsADateIsADateInTheNSPredicateLine() throws {
        let path = try foreignFile(
            """
            CREATE TABLE department (dept_no CHAR(4) PRIMARY KEY, dept_name TEXT);
            CREATE TABLE employee (emp_no INTEGER PRIMARY KEY, hire_date DATE NOT NULL, note TEXT,
              dept_no CHAR(4) REFERENCES department(dept_no));
            INSERT INTO department VALUES ('d001', 'Sales');
            INSERT INTO employee VALUES (1, '1986-06-26', '1995-01-01', 'd001'), (2, '1996-02-01', NULL, 'd001');
            """)
        let h = try Harness(context: try StoreOpener.open(path))
        func line(_ code: String?) -> String? { code?.split(separator: "\n").first.map(String.init) }
        let byDate = try #require(line(h.string(#"predicate("hire_date > %@", date("1995-01-01T00:00:00Z")):swift("employee")"#)))
        let byString = try #require(line(h.string(#"predicate("hire_date > %@", "1995-01-01"):swift("employee")"#)))
        #expect(byString == byDate, "\(byString)")
        #expect(
            byString.contains(#"hire_date > %@"#)
                && byString.contains("Date(timeIntervalSinceReferenceDate: -189388800) /* 1995-01-01T00:00:00Z */ as NSDate"), "\(byString)")
        // A string compared with a text key stays a string, in the same predicate.
        let mixed = try #require(line(h.string(#"predicate("hire_date > %@ AND note == %@", "1995-01-01", "1995-01-01"):swift("employee")"#)))
        #expect(mixed.contains(#"note == "1995-01-01""#) && mixed.contains(#"hire_date > %@"#) && mixed.contains("as NSDate"), "\(mixed)")
        // Through a to-many, as ANY reads it, and in a list.
        let members = try #require(line(h.string(#"predicate("ANY employees.hire_date < %@", "1990-01-01"):swift("department")"#)))
        #expect(members.contains(#"ANY employees.hire_date < %@"#) && members.contains("/* 1990-01-01T00:00:00Z */ as NSDate"), "\(members)")
        let between = try #require(line(h.string(#"predicate("hire_date BETWEEN %@", {"1980-01-01", "1990-01-01"}):swift("employee")"#)))
        #expect(!between.contains(#""1980-01-01""#) && between.contains(#"BETWEEN {%@, %@}"#), "\(between)")
    }
}
