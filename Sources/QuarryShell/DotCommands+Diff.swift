import Foundation
import QuarryFetch
import QuarryLua
import QuarryModel
import QuarryStore
import QuarryStores

/// `.diff OTHER`: what changed from this session's store to another store (any location
/// `.open` takes), object by object, as `diff()` prints it. The other store is opened
/// read-only for the comparison and closed after it.
extension DotCommands {
    static let diffCommand = Command(
        name: "diff", usage: ".diff DB", summary: "compare this store with DB (opened read-only): the models, then every object changed"
    ) { shell, words in
        guard let location = openLocation(words), location != ":memory:" else {
            reportError("usage: .diff DB")
            return .ok
        }
        // A file that is not there would be made by opening it: refused first.
        if StoreRegistry.namesFile(location), !FileManager.default.fileExists(atPath: location) {
            reportError(".diff: \(location) does not exist")
            return .ok
        }
        do {
            let other = try StoreOpener.open(location, readOnly: true)
            defer { other.close() }
            let diff = try StoreDiff.compare(shell.runtime.context, other)
            for note in diff.notes { reportNote(note) }
            print(diff.isEmpty ? "no differences" : shell.runtime.renderDiff(diff))
        } catch {
            reportError(error)
        }
        return .ok
    }
}
