import Foundation
import QuarryFormat
import QuarryLua
import QuarryModel
import QuarryModelFiles
import QuarryStore
import QuarryStores

/// The dot-commands on the store and its files: import, export, open another, and what
/// it holds unsaved, noted and recorded.
extension DotCommands {
    static let storeCommands: [Command] = [
        Command(name: "import", usage: ".import FILE ENTITY", summary: "import a CSV or JSON file into ENTITY (committed at once, as import() does)")
        { shell, args in
            guard args.count == 2 else {
                reportError("usage: .import FILE ENTITY")
                return .ok
            }
            shell.runLua("print(import(\(luaQuote(args[0])), { entity = \(luaQuote(args[1])) }) .. ' rows imported into ' .. \(luaQuote(args[1])))")
            return .ok
        },
        Command(name: "export", usage: ".export FILE", summary: "write the last results printed (_) to a CSV or JSON file") { shell, args in
            guard args.count == 1 else {
                reportError("usage: .export FILE")
                return .ok
            }
            shell.runLua(
                // `_` is the last value printed, which may be a chart or a number printed
                // after the results: said, rather than "print some results first" to one
                // who just did.
                "local t = quarry.typeof(_) if t ~= 'results' and t ~= 'table' then "
                    + "error(t == 'nil' and '.export: print some results first; _ holds the last ones' "
                    + "or ('.export: _ holds the last value printed (' .. t .. '), not results or rows: print them again (r), then .export FILE'), 0) end "
                    + "local n = export(_, \(luaQuote(args[0]))) "
                    // At the prompt export() itself says what it wrote where.
                    + (shell.runtime.settings.notesReplacedExports
                        ? ""
                        : "print(n .. (t == 'results' and ' object' or ' row') .. (n == 1 and '' or 's') .. ' written to ' .. \(luaQuote(args[0])))")
            )
            return .ok
        },
        Command(
            name: "open", usage: ".open [--new] DB",
            summary: "close this store and open DB (:memory: for a new one; --new: make DB, which must not exist)"
        ) { shell, words in
            // `--new`, as sqlite3's: a name refused as a typo of a file beside it is made.
            let new = words.first == "--new"
            let args = new ? Array(words.dropFirst()) : words
            // A libpq connection string may be typed unquoted: `.open host=h dbname=d`.
            guard let location = openLocation(args) else {
                reportError("usage: .open [--new] DB")
                return .ok
            }
            let path = location == ":memory:" ? nil : location
            // --safe writes no new files, and --readonly holds for every store of the session.
            if let path, shell.session.isSafe, StoreRegistry.namesFile(path), !FileManager.default.fileExists(atPath: path) {
                reportError(".open: \(path) does not exist, and --safe does not create files")
                return .ok
            }
            do {
                try shell.session.open(path, new: new)
            } catch {
                reportError(error)
                return .ok
            }
            // At the prompt, what is open now, as psql's \c says where it connected: a silent
            // `.open` left a person unsure it had worked (issue 80).
            // (A new or empty store has its own note, or nothing to name.)
            let names = shell.runtime.context.entities.map(\.name)
            if shell.session.notesViewsLeftOut, !names.isEmpty { print(DotCommands.openedLine(location, names)) }
            // The interactive init file, as after the first store was opened.
            shell.session.rerunInitFile()
            return .ok
        },
        Command(
            name: "changes", usage: ".changes",
            summary:
                "list unsaved inserts (with their values), updates (each changed key as key: old → new) and deletes (counted by entity when several)"
        ) { shell, _ in
            // Many changes (a cascade's deletes) go through the pager, as a long table does.
            let text = PendingChangesText.lines(shell.runtime.context).map { $0 + "\n" }.joined()
            if !shell.session.console.page(text) { print(text, terminator: "") }
            return .ok
        },
        Command(name: "notes", usage: ".notes", summary: "every note opening the store made (an open prints the first 20)") { shell, _ in
            let notes = shell.runtime.context.openingNotes
            if notes.isEmpty { print("opening the store made no notes") }
            // One line each, escaped and bounded as at the open; here all of them, on stdout.
            for note in notes { print(OpeningNotes.line(note)) }
            return .ok
        },
        Command(name: "history", usage: ".history [N]", summary: "the last N recorded transactions (10)") { shell, args in
            let count = args.first.flatMap(Int.init) ?? 10
            do {
                let all = try shell.runtime.context.history()
                // In columns (a time's fraction has as many digits as it needs: `.69`,
                // `.857`), the author last, as it may be long (a migration's words).
                let shown = all.suffix(count).map { t in
                    [
                        "\(t.token)", Value.iso8601(t.time), "+\(t.inserted.count) ~\(t.updated.count) -\(t.deleted.count)",
                        ErrorRendering.escaped(t.author ?? "-")
                    ]
                }
                let widths = (0..<3).map { i in shown.map { $0[i].count }.max() ?? 0 }
                for row in shown {
                    let padded = (0..<3).map { i in row[i] + String(repeating: " ", count: widths[i] - row[i].count) }
                    print((padded + [row[3]]).joined(separator: "  "))
                }
                if all.isEmpty {
                    // A file another program made keeps no history of Quarry's: its writers record none.
                    let context = shell.runtime.context
                    print(
                        ForeignFileNotes.isForeignFile(context)
                            ? ForeignFileNotes.noHistory
                            : CoreDataHistoryKeeping.keepsNone(context) ? CoreDataHistoryKeeping.none : "no transactions recorded yet")
                }
            } catch {
                reportError(error)
            }
            return .ok
        }
    ]
}

extension DotCommands {
    /// `opened chinook.db: 11 entities (Album, Artist, Customer, …)`: the names sorted, the
    /// first few, escaped (they come from the file).
    static func openedLine(_ location: String, _ names: [String]) -> String {
        let sorted = names.sorted { $0.lowercased() < $1.lowercased() }
        let count = sorted.count == 1 ? "1 entity" : "\(sorted.count) entities"
        // A server's address without its password, as every note says it.
        let shown = sorted.prefix(6).joined(separator: ", ") + (sorted.count > 6 ? ", …" : "")
        return ErrorRendering.said("opened \(location): \(count) (\(shown))")
    }
}

/// The location `.open`'s words name: its one word, or the words of a libpq connection
/// string typed without quotes around it (`.open host=h dbname=d password='a b'`), each
/// `keyword=value`, joined again with every value in single quotes as libpq reads them
/// (the words lost their quotes). Nil for anything else.
func openLocation(_ args: [String]) -> String? {
    if args.count == 1 { return args[0] }
    guard args.count > 1, let first = args.first, !StoreRegistry.namesFile(first) else { return nil }
    var pairs: [String] = []
    for word in args {
        guard let equals = word.firstIndex(of: "=") else { return nil }
        let value = word[word.index(after: equals)...].replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        pairs.append(word[..<equals] + "='" + value + "'")
    }
    return pairs.joined(separator: " ")
}
