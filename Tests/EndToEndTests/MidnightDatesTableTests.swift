import Foundation
import Testing

/// Dates imported from a CSV of days (`2003-07-01`) showed in a table as
/// `2003-07-01T00:00…`, cut to the column's width, where a file's column of days showed
/// `1986-06-26`. A date column whose shown values are all midnights UTC shows days; one
/// value with a time of day keeps the column as instants; the values stay dates.
@Suite struct MidnightDatesTableTests {
    @Test func aColumnOfMidnightsShowsDaysInATable() async throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("hires.csv", "emp_no,hired\n1,2003-07-01\n2,1986-06-26\n")
        _ = try sandbox.write("stamps.csv", "emp_no,at\n1,2003-07-01T00:00:00Z\n2,2003-07-01T09:30:00Z\n")
        let script = """
            import("hires.csv", { entity = "Hire" }); import("stamps.csv", { entity = "Stamp" })
            quarry.show(fetch{ "Hire", sort = "emp_no" }); quarry.show(fetch{ "Stamp", sort = "emp_no" })
            print(typeof(Hire:first().hired), tostring(Hire:first("emp_no == 1").hired))
            """
        let result = try await sandbox.quarry(["s.db", "-e", script])
        #expect(result.status == 0, "\(result)")
        let hire = try #require(result.lines.first { $0.contains("Hire/1") }, "\(result)")
        #expect(hire.contains("2003-07-01") && !hire.contains("T00"), "\(result)")
        let stamp = try #require(result.lines.first { $0.contains("Stamp/1") }, "\(result)")
        #expect(stamp.contains("2003-07-01T00:00:00Z"), "\(result)")
        #expect(result.lines.contains("date\t2003-07-01T00:00:00Z"), "\(result)")
    }
}
