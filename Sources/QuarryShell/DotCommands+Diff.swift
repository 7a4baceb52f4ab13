import Foundation
import QuarryFetch
import QuarryLua
import QuarryModel
import QuarryStore
import QuarryStores

/// `.diff OTHER`: what changed from this session's store to another store (any location
/// `.open` takes), object by object, as `diff()` prints it. The other store is opened
/// read-only for the comparison and closed after it. `ENTITY by KEY` after it matches
/// that entity's objects by KEY (`diff()`'s `by`), as a table without a key needs.
extension DotCommands {
    static let diffCommand = Command(
        name: "diff", usage: ".diff DB [ENTITY by KEY[,KEY...]]...",
        summary: "compare this store with DB (opened read-only): the models, then every object changed (by KEY for a table without one)"
    ) { shell, words in
        guard let (locationWords, by) = diffWords(words), let location = openLocation(locationWords), location != ":memory:" else {
            reportError("usage: .diff DB [ENTITY by KEY[,KEY...]]...")
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
            let diff = try StoreDiff.compare(shell.runtime.context, other, options: DiffOptions(by: by))
            // The tables left out for want of a key, with this command's words for the fix.
            let named = locationWords.count == 1 && StoreRegistry.namesFile(location) ? location : "DB"
            let unkeyed = diff.unkeyed.first.map { StoreDiff.unkeyedNote(diff.unkeyed, fix: ".diff \(named) \($0) by KEY") }
            // The notes first, said before the summary they qualify.
            fflush(nil)
            for note in diff.notes { reportNote(unkeyed != nil && note.hasPrefix("not compared, having no key") ? unkeyed ?? note : note) }
            // A table left uncompared differs still when its row counts do.
            for counts in diff.unkeyedCounts { print(counts.line(old: "this store", new: named == "DB" ? "the other store" : named)) }
            if !diff.model.isEmpty || !diff.changes.isEmpty {
                print(shell.runtime.renderDiff(diff, with: other))
                return .differed
            } else if diff.unkeyedCounts.isEmpty {
                // Never "no differences" over tables that were not compared; none compared
                // at all is no answer (trial 33: 2,042 changed rows, "no differences", 0).
                let compared = shell.runtime.context.entities.filter { !diff.unkeyed.contains($0.name) }
                if !diff.unkeyed.isEmpty, compared.isEmpty {
                    reportError(".diff: nothing was compared: no table has a key to match its objects by (the note above names the fix)")
                    return .ok
                }
                print(diff.unkeyed.isEmpty ? "no differences" : "no differences in the tables compared")
            } else {
                return .differed
            }
        } catch DiffError.ambiguousIdentity(let entity, let reason, let fix) {
            // The fix in this command's words, not diff()'s option table.
            let keys = fix.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            let key = keys.isEmpty || keys.contains { $0.hasPrefix("<") } ? "KEY" : keys.joined(separator: ",")
            // A file by its name; a connection string, which may hold a password, as DB.
            let named = locationWords.count == 1 && StoreRegistry.namesFile(location) ? location : "DB"
            reportError(DiffError.ambiguousIdentity(entity: entity, reason: reason, fix: ".diff \(named) \(entity) by \(key)"))
        } catch {
            reportError(error)
        }
        return .ok
    }

    /// `.diff DB T by code Line by order,n`: the words naming the store, and the keys each
    /// named entity's objects are matched by; nil when a `by` lacks its entity or keys.
    static func diffWords(_ words: [String]) -> ([String], [String: [String]])? {
        guard let first = words.firstIndex(where: { $0.lowercased() == "by" }) else { return (words, [:]) }
        guard first >= 2 else { return nil }
        var by: [String: [String]] = [:]
        var i = first - 1
        while i < words.count {
            guard i + 2 < words.count, words[i + 1].lowercased() == "by" else { return nil }
            let keys = words[i + 2].split(separator: ",").map { String($0) }
            guard !keys.isEmpty else { return nil }
            by[words[i]] = keys
            i += 3
        }
        return (Array(words[..<(first - 1)]), by)
    }
}
