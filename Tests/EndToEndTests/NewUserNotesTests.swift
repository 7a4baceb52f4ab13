import Foundation
import Testing

/// Moments of a new user's trial where Quarry said nothing, or too little: the history of a
/// file Quarry did not make, an import that changed such a file, a column made text by
/// one cell, and a file without a header imported into an existing table.
@Suite struct NewUserNotesTests {
    /// The words `.history` answers with on such a file, which `history{}` notes too.
    private let noHistory = "no history: a file Quarry did not make keeps none (history{} is empty there); other programs' changes are still seen"

    @Test func historyOfAFileQuarryDidNotMakeSaysOnceThatItKeepsNone() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(sandbox, "f.db", "CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('x')")
        let run = try await sandbox.quarry(["f.db", "-e", "print(#history{}); print(#history{ author = 'me' })"])
        #expect(run.status == 0 && run.lines == ["0", "0"], "\(run)")
        #expect(run.errorLines == ["note: " + noHistory], "said once, in .history's words: \(run)")
        // .history answers with the same words.
        let dot = try await sandbox.quarry(["f.db", "-"], stdin: ".history\n")
        #expect(dot.lines == [noHistory], "\(dot)")
        // Quarry's own file keeps one: nothing to say while it is empty.
        let own = try await sandbox.quarry(["own.db", "-e", "print(#history{})"])
        #expect(own.lines == ["0"] && own.errorLines.isEmpty, "\(own)")
    }

    @Test func anImportIntoAFileQuarryDidNotMakeSaysWhatItWroteThere() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(sandbox, "f.db", "CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x')")
        try sandbox.write("rows.csv", "a,b\n2,y\n3,z\n")
        // Rows added to the file's own table: in the file at once, rollback() or not.
        let added = try await sandbox.quarry(["f.db", "-e", #"import("rows.csv", "t"); rollback()"#])
        #expect(added.status == 0, "\(added)")
        let addedNote =
            "import rows.csv: added 2 rows to the table t of f.db, a file Quarry did not make; "
            + "written to the file at once (rollback() does not undo it)"
        #expect(added.errorLines == [addedNote], "\(added)")
        #expect(try await sqlite3(sandbox, "f.db", "SELECT count(*) FROM t") == "3")
        // A new table made in it, without a save.
        let made = try await sandbox.quarry(["f.db", "-"], stdin: ".import rows.csv fresh\n")
        #expect(made.lines == ["2 rows imported into fresh"], "\(made)")
        let madeNote =
            "import rows.csv: made the table fresh in f.db, a file Quarry did not make, with 2 rows; "
            + "written to the file at once (rollback() does not undo it)"
        #expect(made.errorLines == [madeNote], "\(made)")
        #expect(try await sqlite3(sandbox, "f.db", "SELECT group_concat(a || b, ' ') FROM fresh") == "2y 3z")
        // Quarry's own file: nothing to say.
        let own = try await sandbox.quarry(["own.db", "-e", #"import("rows.csv", "t")"#])
        #expect(own.status == 0 && own.errorLines.isEmpty, "\(own)")
    }

    @Test func aColumnMadeTextByAFewCellsNamesTheFirstByLineAndCountsThem() async throws {
        let sandbox = try Sandbox()
        let long = String(repeating: "w", count: 60)
        try sandbox.write("stock.csv", "item,qty,price\npen,3,1.5\ncup,n/a,2\n\"ink,\nblue\",7,2.25\nmug,5,x\nbox,?,3\npad,4,\(long)\nnib,6,1\n")
        let run = try await sandbox.quarry(["own.db", "-"], stdin: ".import stock.csv Stock\n")
        #expect(run.lines == ["7 rows imported into Stock"], "\(run)")
        // Lines as an editor numbers them: the quoted line break counts, the header is line 1.
        #expect(
            run.errorLines == [
                #"import stock.csv: column qty is text: 2 cells are not int64 (the first at line 3: "n/a"); fix the file, or nulls = { "", "NA", "n/a" } reads that text as nil"#,
                #"import stock.csv: column price is text: 2 cells are not double (the first at line 6: "x"); fix the file, or nulls = { "", "NA", "x" } reads that text as nil"#
            ], "\(run)")
        // One cell, clipped: no nulls to offer for a text cut short.
        try sandbox.write("one.csv", "n\n1\n\(long)\n3\n")
        let one = try await sandbox.quarry(["own.db", "-e", #"import("one.csv", "One")"#])
        let clipped = String(repeating: "w", count: 39) + "…"
        #expect(one.errorLines == [#"import one.csv: column n is text: 1 cell is not int64 (line 3: "\#(clipped)"); fix the file"#], "\(one)")
        // A column of words says nothing.
        try sandbox.write("words.csv", "w\nalpha\n2\nbeta\n")
        let words = try await sandbox.quarry(["own.db", "-e", #"import("words.csv", "Words")"#])
        #expect(words.status == 0 && words.errorLines.isEmpty, "\(words)")
    }

    @Test func aFileWithoutAHeaderGoesIntoAnExistingTableColumnByColumn() async throws {
        let sandbox = try Sandbox()
        _ = try await sqlite3(sandbox, "f.db", "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER)")
        try sandbox.write("items.csv", "1,pen,3\n2,cup,5\n")
        try sandbox.write("short.csv", "pen,3\n")
        let run = try await sandbox.quarry(["f.db", "-e", #"print(import("items.csv", "item", { header = false }))"#])
        #expect(run.status == 0 && run.lines == ["2"], "\(run)")
        #expect(try await sqlite3(sandbox, "f.db", "SELECT group_concat(id || name || qty, ' ') FROM item") == "1pen3 2cup5")
        // Another count of columns: refused in one line, the table as it was.
        let short = try await sandbox.quarry(["f.db", "-e", #"import("short.csv", "item", { header = false })"#])
        #expect(short.status != 0 && short.errorLines.count == 1, "\(short)")
        #expect(short.stderr.contains("has no header and 2 columns, and item has 3 attributes (id, name, qty)"), "\(short)")
        #expect(try await sqlite3(sandbox, "f.db", "SELECT count(*) FROM item") == "2")
        // Quarry's own entity, its attributes in their declared order (here the first
        // file's); a first row that reads as data goes the same way, and the note says
        // where its columns went.
        try sandbox.write("parts.csv", "qty,name\n1,pen\n")
        try sandbox.write("more.csv", "7,ink\n8,nib\n")
        let own = try await sandbox.quarry([
            "own.db", "-e",
            #"import("parts.csv", "Part"); print(import("more.csv", "Part")); for _, p in ipairs(fetch{ "Part", sort = "qty" }) do print(p.qty, p.name) end"#
        ])
        #expect(own.status == 0 && own.lines == ["2", "1\tpen", "7\tink", "8\tnib"], "\(own)")
        #expect(own.stderr.contains("imported as a row, the columns taken as Part's attributes in order"), "\(own)")
    }

    /// A CSV whose header leaves fields empty (a sheet's trailing commas, pandas' index
    /// column) was refused whole ("column '' appears twice in the header"; one empty field:
    /// "'' cannot be a column name") where sqlite3's `.import` reads it: each such column
    /// is named by its place and a note says so.
    @Test func aHeaderWithEmptyFieldsImportsWithTheirColumnsNamedByPlace() async throws {
        let sandbox = try Sandbox()
        try sandbox.write("ratings.csv", "userId,movieId,rating,,\n1,31,2.5,,\n1,1029,3,,3.4\n")
        let run = try await sandbox.quarry([
            "m.db", "-e",
            #"print(import("ratings.csv", "Rating")); for _, r in ipairs(fetch{ "Rating", sort = "movieId" }) do print(r.movieId, r.rating, r.column4, r.column5) end"#
        ])
        #expect(run.status == 0 && run.lines == ["2", "31\t2.5\tnil\tnil", "1029\t3.0\tnil\t3.4"], "\(run)")
        #expect(
            run.errorLines.contains("import ratings.csv: 2 columns have no name in the header; named column4, column5 by their places"),
            "\(run)")
        try sandbox.write("frame.csv", ",name\n0,ann\n")
        let frame = try await sandbox.quarry(["m.db", "-e", #"import("frame.csv", "Frame"); print(Frame:first().column1)"#])
        #expect(frame.status == 0 && frame.lines == ["0"], "\(frame)")
        #expect(frame.errorLines.contains("import frame.csv: a column has no name in the header; named column1 by its place"), "\(frame)")
        // Into an entity without such an attribute: refused, saying where the name came from.
        let into = try await sandbox.quarry(["m.db", "-e", #"import("frame.csv", "Rating")"#])
        #expect(into.status == 1 && into.stderr.contains("column 1 has no name in the header (read as 'column1')"), "\(into)")
    }
}
