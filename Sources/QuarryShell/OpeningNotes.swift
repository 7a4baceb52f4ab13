import QuarryModel

/// What opening a store had to say, bounded as errors are: a store's files choose how
/// many notes there are and how long the names in them (20,000 elements without columns,
/// a 100 KB element name), so each note is one line cut to `ErrorRendering`'s line
/// bound with a count of what was left out, and an open prints at most `shown` of them,
/// then one line saying how many more there are and that `.notes` lists them all.
enum OpeningNotes {
    /// Notes printed at one open; past this they would bury the prompt.
    static let shown = 20

    /// The lines printed for `notes`, without the `note: ` prefix.
    static func lines(_ notes: [String]) -> [String] {
        var lines = notes.prefix(shown).map(line)
        if notes.count > shown {
            lines.append("\(notes.count - shown) more notes left out (.notes lists them all)")
        }
        return lines
    }

    /// One note as one line of at most `ErrorRendering.maximumLineLength` characters.
    static func line(_ note: String) -> String {
        ErrorRendering.oneLine(note)
    }

    /// Prints the notes of an open on stderr (`reportNote`).
    static func report(_ notes: [String]) {
        for line in lines(notes) { reportNote(line) }
    }
}
