import ArgumentParser
import Foundation

/// quarry(1), the man page `quarry --generate-manual` prints (scripts/install installs it).
/// Its name, synopsis, description, options and arguments come from ArgumentParser's own
/// help data (`--experimental-dump-help`, the source `--help` reads), so the page and
/// `--help` cannot disagree; the sections ArgumentParser has no place for (exit status,
/// environment, files, examples) are written here, from the contract's command line.
enum Manual {
    /// The page, in man(7) macros (`man -l` renders it).
    static func page() -> String {
        let command = helpData()
        var out = [".TH QUARRY 1 \"\" \"quarry \(Options.version)\" \"User Commands\""]
        // No hyphenation and a ragged right: paths and variable names stay whole.
        out += [".nh", ".ad l"]
        out.append(".SH NAME")
        out.append("quarry \\- " + text(command["abstract"] as? String ?? ""))
        out.append(".SH SYNOPSIS")
        for line in Options.usage.split(separator: "\n") {
            out.append(".nf")
            out.append(text(line.trimmingCharacters(in: .whitespaces)))
            out.append(".fi")
        }
        out.append(".SH DESCRIPTION")
        out.append(text(command["abstract"] as? String ?? ""))
        out.append(".PP")
        out.append(text(command["discussion"] as? String ?? ""))
        let arguments = (command["arguments"] as? [[String: Any]] ?? []).filter { $0["shouldDisplay"] as? Bool ?? true }
        out.append(".SH OPTIONS")
        for argument in arguments where argument["kind"] as? String != "positional" {
            out.append(".TP")
            out.append(optionHeading(argument))
            out.append(text(argument["abstract"] as? String ?? ""))
        }
        out.append(".SH ARGUMENTS")
        for argument in arguments where argument["kind"] as? String == "positional" {
            out.append(".TP")
            out.append("\\fI" + text((argument["valueName"] as? String ?? "").uppercased()) + "\\fR")
            out.append(text(argument["abstract"] as? String ?? ""))
        }
        out.append(contentsOf: fixedSections)
        return out.joined(separator: "\n") + "\n"
    }

    /// The command's entry in ArgumentParser's help as JSON.
    private static func helpData() -> [String: Any] {
        let json: String
        do {
            _ = try Options.parse(["--experimental-dump-help"])
            return [:]
        } catch {
            json = Options.fullMessage(for: error)
        }
        let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return object?["command"] as? [String: Any] ?? [:]
    }

    /// `\fB\-\-timeout\fR \fIseconds\fR`, every name of the option, bold.
    private static func optionHeading(_ argument: [String: Any]) -> String {
        let names = (argument["names"] as? [[String: Any]] ?? []).map { name -> String in
            let dashes = name["kind"] as? String == "long" ? "--" : "-"
            return "\\fB" + text(dashes + (name["name"] as? String ?? "")) + "\\fR"
        }
        var heading = names.joined(separator: ", ")
        if argument["kind"] as? String == "option", let value = argument["valueName"] as? String {
            heading += " \\fI" + text(value) + "\\fR"
        }
        return heading
    }

    /// Text as roff reads it literally: backslashes and dashes escaped, no line starting
    /// with a control character, and the typographic characters of the help text in
    /// roff's own names (an ASCII terminal's troff has no glyph for `…`, and warns).
    static func text(_ s: String) -> String {
        let escaped = s.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
            .replacingOccurrences(of: "…", with: "...").replacingOccurrences(of: "–", with: "\\(en")
            .replacingOccurrences(of: "—", with: "\\(em")
        return escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    /// A paragraph per item: `.TP`, the term in bold, then its text.
    private static func items(_ pairs: [(String, String)]) -> [String] {
        pairs.flatMap { [".TP", "\\fB" + text($0.0) + "\\fR", text($0.1)] }
    }

    private static var fixedSections: [String] {
        var out: [String] = []
        out.append(".SH EXIT STATUS")
        out += items([
            ("0", "Success."),
            (
                "1",
                "A Lua or store error (one line on standard error, SCRIPT:LINE: message), an error in LUA_INIT or in the init file of a batch run, --timeout reached, or an observer that raised an error in a batch run; .diff DB given as a statement or in piped input, when the stores differ (as diff and cmp)."
            ),
            (
                "2",
                "Bad usage: an unknown option, a missing or bad value; .diff DB given as a statement or in piped input, on trouble (a store not there)."
            )
        ])
        out.append(".SH ENVIRONMENT")
        out += items([
            (
                "LUA_INIT_5_4, LUA_INIT",
                "Lua run before the script, the chunks or the REPL, as lua(1) runs it: a chunk, or @FILE for a file. LUA_INIT is read only when LUA_INIT_5_4 is not set. It runs under --safe when that is given; an error in it ends the run with status 1. -E ignores both."
            ),
            (
                "LUA_PATH_5_4, LUA_PATH, LUA_CPATH_5_4, LUA_CPATH",
                "Where require looks for Lua and C modules, as in lua(1) (;; stands for the default path). -E ignores them; under --safe no C module loads."
            ),
            ("XDG_CONFIG_HOME", "The init file of an interactive session is $XDG_CONFIG_HOME/quarry/init.lua (default ~/.config/quarry/init.lua)."),
            ("XDG_STATE_HOME", "When set, the REPL's history is kept in $XDG_STATE_HOME/quarry/history."),
            (
                "XDG_CACHE_HOME, QUARRY_CACHE_DIR",
                "Where models decoded from Core Data stores are cached: $QUARRY_CACHE_DIR, else $XDG_CACHE_HOME/quarry, else ~/.cache/quarry. An empty QUARRY_CACHE_DIR turns the cache off."
            ),
            ("NO_COLOR", "When set, no colour is used (as when standard output or standard error is not a terminal)."),
            (
                "QUARRY_PAGER, PAGER, LESS",
                "The pager for long output in the REPL (QUARRY_PAGER first; empty for none), else less; LESS defaults to FRSX."
            ),
            ("TERM", "With TERM=dumb, charts are drawn in ASCII."),
            ("TMPDIR", "Where large imports spool their rows (default /tmp)."),
            ("HOME", "The home folder the default paths below start from.")
        ])
        out.append(".SH FILES")
        out += items([
            (
                "~/.config/quarry/init.lua",
                "The init file an interactive session runs after the store is open and again after .open (see XDG_CONFIG_HOME); --init FILE runs FILE instead in any kind of run, --no-init runs none. Scripts and -e chunks read none unless --init names one. An error in it is one line naming the file and line, and the REPL goes on; a batch run stops with status 1."
            ),
            (
                "$XDG_STATE_HOME/quarry/history, ~/.quarry_history",
                "The REPL's history (1000 lines). The first is used when XDG_STATE_HOME is set; the old ~/.quarry_history is still read while the new file does not exist."
            ),
            ("~/.cache/quarry/", "Models decoded from Core Data stores (see XDG_CACHE_HOME)."),
            (
                "DB.quarry",
                "Beside a SQLite file Quarry did not make: what relate(), format() and entity definitions added to it (JSON, Quarry's own), restored when it is opened again. Not written under --safe."
            ),
            ("DB-wal, DB-shm, DB-journal", "SQLite's own files beside DB while it is open.")
        ])
        out.append(".SH EXAMPLES")
        for (what, line) in [
            ("The REPL over a file (created if missing):", "quarry todo.db"),
            ("A script, with its own arguments in arg:", "quarry todo.db job.lua a b"),
            ("A chunk, then exit:", "quarry todo.db -e 'print(count(\"Item\"))'"),
            ("A query, its rows printed as a table, as sqlite3 runs one:", "quarry todo.db 'SELECT title, count(*) FROM Item GROUP BY title'"),
            ("Untrusted code, read from standard input, stopped after 10 seconds:", "quarry --safe --timeout 10 todo.db - < job.lua"),
            ("A schema of a PostgreSQL database:", "quarry 'postgres://analyst@db.internal:5432/flights?schema=public'"),
            ("The same, written as a libpq connection string:", "quarry 'host=db.internal port=5432 user=analyst dbname=flights schema=public'"),
            ("An app's Core Data store, read only:", "quarry --readonly ~/Library/Containers/App/Data/App.sqlite"),
            ("Helpers loaded before a script, as lua loads LUA_INIT:", "LUA_INIT=@helpers.lua quarry todo.db report.lua"),
            ("A set-up file before a script (scripts read no init file otherwise):", "quarry --init setup.lua todo.db report.lua")
        ] {
            out += [".PP", text(what), ".PP", ".RS 4", ".nf", text(line), ".fi", ".RE"]
        }
        out.append(".SH SEE ALSO")
        out.append("\\fBlua\\fR(1), \\fBsqlite3\\fR(1), \\fBpsql\\fR(1)")
        return out
    }
}
