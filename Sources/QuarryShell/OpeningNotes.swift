import QuarryModel
import QuarryStore

/// What opening a store had to say, bounded as errors are: a store's files choose how
/// many notes there are and how long the names in them (20,000 elements without columns,
/// a 100 KB element name), so each note is one line cut to `ErrorRendering`'s line
/// bound with a count of what was left out, and an open prints at most `shown` of them,
/// then one line saying how many more there are and that `.notes` lists them all.
/// Several views left out are one line where the first of them was: a file made for
/// another engine (Sakila's views call MySQL's functions) would say six lines at every
/// run, for the same views each time.
enum OpeningNotes {
    /// Notes printed at one open; past this they would bury the prompt.
    static let shown = 20
    /// Views named in the line that counts them; `.notes` has every one.
    static let viewsNamed = 3

    /// The lines printed for `notes`, without the `note: ` prefix. `views` are the views
    /// left out and `leftOut` the note each was left out with (`ObjectContext.leftOut`).
    static func lines(_ notes: [String], views: [String] = [], leftOut: [String: String] = [:]) -> [String] {
        let folded = views.count > 1 ? Set(views.compactMap { leftOut[$0] }) : []
        var kept: [String] = []
        var counted = false
        for note in notes {
            guard folded.contains(note) else {
                kept.append(note)
                continue
            }
            if !counted { kept.append(viewsLine(views)) }
            counted = true
        }
        var lines = kept.prefix(shown).map(line)
        if kept.count > shown {
            lines.append("\(kept.count - shown) more notes left out (.notes lists them all)")
        }
        return lines
    }

    /// "6 views are left out (a, b, c, …): .notes lists them and why".
    static func viewsLine(_ views: [String]) -> String {
        let named = views.prefix(viewsNamed).joined(separator: ", ") + (views.count > viewsNamed ? ", …" : "")
        return "\(views.count) views are left out (\(named)), as they cannot be read here: .notes lists them and why"
    }

    /// One note as one line of at most `ErrorRendering.maximumLineLength` characters.
    static func line(_ note: String) -> String {
        ErrorRendering.oneLine(note)
    }

    /// Prints the notes of opening `context` on stderr (`reportNote`). Without `views` (a
    /// batch run: `-e`, a script, piped input), the views left out are not said: as sqlite3
    /// says nothing of a view it cannot read until a statement uses it, a run that never
    /// names one says nothing of it at every run, and one that does is refused in one line
    /// saying why (`unknown entity 'film_list': ...`); `.notes` lists them.
    static func report(_ context: ObjectContext, views: Bool = true) {
        let unsaid = views ? [] : Set(context.viewsLeftOut.compactMap { context.leftOut[$0] })
        let notes = context.openingNotes.filter { !unsaid.contains($0) }
        for line in lines(notes, views: views ? context.viewsLeftOut : [], leftOut: context.leftOut) { reportNote(line) }
    }
}
