import Foundation

extension REPL {
    /// A statement's first line as another shell's habit reads it: the line to run (a bare
    /// word, a psql meta-command made the dot-command that does the same), or nil where it
    /// was answered here (psql's `BEGIN;`, a meta-command Quarry has no twin of).
    func readingOtherShells(_ line: String) -> String? {
        var line = line
        // A bare word as psql and Python take it: `help` lists what has help (it printed
        // the function's address), `quit` and `exit` quit as psql's do, while the names
        // hold what Quarry put there or nothing.
        let word = line.trimmingCharacters(in: .whitespaces)
        if word == "help", runtime.globalHolding("help") == .quarrys { line = "help()" }
        if word == "quit" || word == "exit", runtime.globalHolding(word) == .nothing { line = ".quit" }
        // psql's `BEGIN;`, `rollback;`: while the word holds nothing or Quarry's own function.
        if let answer = OtherShellHabits.transaction(line),
            let first = line.split(separator: " ").first.map({ String($0).trimmingCharacters(in: CharacterSet(charactersIn: ";")) }),
            runtime.globalHolding(first) != .other
        {
            reportError(answer)
            return nil
        }
        // SQLite's `VACUUM`, `ATTACH 'w.db' AS w`: while the word holds nothing.
        if let answer = OtherShellHabits.fileStatement(line), let first = word.split(separator: " ").first,
            runtime.globalHolding(String(first).trimmingCharacters(in: CharacterSet(charactersIn: ";"))) == .nothing
        {
            reportError(answer)
            return nil
        }
        // DuckDB's `SUMMARIZE Taxi` is summarize() of the entity, named in any case, as
        // DuckDB matches a table's name (no Lua line is two names).
        if let typed = OtherShellHabits.summarize(line) {
            let names = runtime.context.entities.map(\.name)
            let same = names.filter { $0.lowercased() == typed.lowercased() }
            return "=quarry.summarize(\"" + (names.contains(typed) || same.count != 1 ? typed : same[0]) + "\")"
        }
        // DuckDB's `FROM 'taxis.csv'`, while `FROM` holds nothing (Lua would call it).
        if let answer = SQLAtPrompt.fileFirst(line), runtime.globalHolding(String(word.prefix(4))) == .nothing {
            reportError(answer)
            return nil
        }
        // psql's meta-commands run the dot-command that does the same (`\dt` is `.tables`).
        guard let reading = OtherShellHabits.psql(line) else { return line }
        switch reading {
        case .command(let command): return command
        case .answer(let answer):
            reportError(answer)
            return nil
        }
    }
}
