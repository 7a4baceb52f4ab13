import Foundation
import QuarryModel
import Testing

@testable import QuarryStore

/// Whether a CSV file's first record names its columns or is a row of data, decided as
/// DuckDB's and Python's sniffers decide it (`CSVFirstRecord`).
@Suite struct CSVFirstRecordTests {
    private func table(_ text: String, header: Bool? = nil) throws -> ImportTable {
        let bytes = Array(text.utf8)
        return try CSVImport(path: "t.csv", open: { BytesSource(bytes) }, header: header).table()
    }

    @Test func aRecordOfNumbersAndDatesOverTheSameIsData() throws {
        let data = try table("Aaron,1979-10-24,55314.00,true\nBaker,1980-01-02,61000.50,false\n")
        #expect(data.columns == ["column1", "column2", "column3", "column4"])
        #expect(data.firstRowIsData == FirstRowAsData(column: 2, text: "1979-10-24", type: .date))
        #expect(data.count == 2)
        // An integer over a column of reals is a number too.
        #expect(try table("a,1\nb,2.5\n").firstRowIsData?.column == 2)
    }

    @Test func namesOverTheirValuesAreAHeader() throws {
        for text in [
            "name,born,amount\nBaker,1980-01-02,61000.50\n",
            // One name above a number column is enough.
            "name,7,amount\nBaker,8,1.5\n",
            // Every column text: nothing tells, and a header is the rule.
            "a,b\nc,d\n",
            // A header alone, and a header over empty cells.
            "a,b\n", "a,b\n,\n",
            // An empty field over numbers is no number: no data.
            "1,\n1,2\n"
        ] {
            let read = try table(text)
            #expect(read.firstRowIsData == nil && !read.columns.contains("column1"), "\(text)")
        }
    }

    @Test func anEmptyFieldOfAHeaderNamesItsColumnByItsPlace() throws {
        // pandas' index column (`df.to_csv()`), and a sheet's trailing commas: every field
        // of the header empty but the others' names (this was "column '' appears twice").
        let pandas = try table(",name,score\n0,ann,3\n1,bob,4\n")
        #expect(pandas.columns == ["column1", "name", "score"] && pandas.unnamedColumns == ["column1"] && pandas.count == 2)
        #expect(pandas.firstRowIsData == nil)
        let sheet = try table("userId,rating,,\n1,2.5,,\n1,3,,3.5\n")
        #expect(sheet.columns == ["userId", "rating", "column3", "column4"] && sheet.unnamedColumns == ["column3", "column4"])
        // A place's name the file already gives goes to that column: the empty one differs.
        let taken = try table("column2,,b\n1,2,3\n", header: true)
        #expect(taken.columns == ["column2", "column2_", "b"] && taken.unnamedColumns == ["column2_"])
        // A name given twice is still refused.
        #expect(throws: StoreError.self) { try table("a,a\nx,y\n") }
    }

    @Test func headerDecidesWhenGiven() throws {
        let named = try table("1,2\n3,4\n", header: true)
        #expect(named.columns == ["1", "2"] && named.firstRowIsData == nil && named.count == 1)
        let rows = try table("a,b\nc,d\n", header: false)
        #expect(rows.columns == ["column1", "column2"] && rows.firstRowIsData == nil && rows.count == 2)
    }
}
