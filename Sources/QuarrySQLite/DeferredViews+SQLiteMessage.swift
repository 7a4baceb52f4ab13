import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

extension DeferredViews {
    /// The makings of the view SQLite's message names ("no such table: main.Asset"), if
    /// it is one of these.
    func take(missingIn message: String) -> [Making] {
        DatabaseError.missingTable(in: message).map { take(missingTable: $0) } ?? []
    }
}
