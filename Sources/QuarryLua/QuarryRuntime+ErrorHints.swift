import Foundation
import QuarryModel
import QuarryStore

/// The hints a Lua error gains where the name it stumbled on was near something Quarry
/// knows: an entity used as a global, a shadowed entity, a hidden method, a relationship.
extension QuarryRuntime {
    /// For Lua's "attempt to index a nil value (global 'Custmer')" (or to call one), the
    /// entity whose handle was meant, as other unknown names get one: the open store's
    /// entity names nearest the global's; for a call, else the nearest of Quarry's
    /// functions (`histgram`). Nil for any other message, or no near name.
    func entitySuggestion(for message: String) -> String? {
        guard message.hasSuffix("')"),
            message.contains("attempt to index a nil value (global '") || message.contains("attempt to call a nil value (global '"),
            let start = message.range(of: "(global '", options: .backwards)
        else { return nil }
        let name = String(message[start.upperBound...].dropLast(2))
        if let entity = entitySuggestion(forGlobal: name) { return entity }
        // A function mistyped (`histgram(...)`): the nearest of Quarry's own.
        guard message.contains("attempt to call a nil value"),
            let match = closestMatch(to: name, in: FunctionHelp.all.filter { $0.kind == nil }.map(\.name)), match != name
        else { return nil }
        return match
    }

    /// The open store's entity name nearest an unset global's `name`, when one is near.
    func entitySuggestion(forGlobal name: String) -> String? {
        let entities = openedContext?.entities.map(\.name) ?? []
        guard let match = closestMatch(to: name, in: entities), match != name else { return nil }
        return match
    }

    /// For Lua's "attempt to index a function value (global 'type')": an entity named as
    /// a global Lua already has (`type`, `string`, `table`) is not bound there, as the
    /// contract says; where its handle is, and the functions that take its name.
    func shadowedEntityHint(for message: String) -> String? {
        guard message.hasSuffix("')"), message.contains("attempt to "), let start = message.range(of: " value (global '", options: .backwards)
        else { return nil }
        let name = String(message[start.upperBound...].dropLast(2))
        guard openedContext?.entities.contains(where: { $0.name == name }) == true else { return nil }
        let quoted = "\"" + name + "\""
        return
            "; the global '\(name)' is Lua's own, so the entity \(name) is not bound there: stores()[1][\(quoted)] is its handle, and fetch(\(quoted)), count(\(quoted)) take its name"
    }

    /// For Lua's "attempt to call a number value (method 'delete')": a key of that name
    /// (a column `delete`, `changes`) hides the object's method, as the contract says
    /// attributes do; the form that always calls it.
    func hiddenMethodHint(for message: String) -> String? {
        guard message.hasSuffix("')"), message.contains("attempt to call a"), let start = message.range(of: "(method '", options: .backwards)
        else { return nil }
        let name = String(message[start.upperBound...].dropLast(2))
        guard ObjectBindings.objectGlobals.contains(where: { $0.name == name }) else { return nil }
        return "; a key named '\(name)' hides the object's method: quarry.\(name)(o) calls it"
    }

    /// For Lua's "attempt to index a number value (field 'habit')": where `habit` is a
    /// column that keeps a to-one relationship of another name (a column named as its
    /// target keeps `habit_rel`), the relationship, which is what `o.habit.name` meant.
    /// The column reads as its number, as it must; only the message learns the name.
    func relationshipHint(for message: String) -> String? {
        let prefix = "attempt to index a number value (field '"
        guard message.hasSuffix("')"), let start = message.range(of: prefix, options: .backwards)
        else { return nil }
        let column = String(message[start.upperBound...].dropLast(2))
        for entity in openedContext?.entities ?? [] {
            guard let kept = entity.toOneRelationships.first(where: { $0.linkColumns == [column] && $0.name != column }) else { continue }
            return "; '\(column)' of \(entity.name) is the column, its relationship is '\(kept.name)' (o.\(kept.name))"
        }
        return nil
    }

    /// For Lua's "attempt to index a nil value (global 'watchlist')": a relation of the
    /// store that is no entity, and so has no handle, says why, as `count("watchlist")`
    /// does (`ObjectContext.leftOut`): a table another program made in the file after the
    /// open, a view the open could not read.
    func leftOutHint(for message: String) -> String? {
        guard message.hasSuffix("')"), message.contains("attempt to index a nil value (global '"),
            let start = message.range(of: "(global '", options: .backwards), let context = openedContext
        else { return nil }
        let name = String(message[start.upperBound...].dropLast(2))
        return context.leftOut[name].map { "; \($0)" }
    }

    /// For Lua's "attempt to call a nil value (global 'undo')": a function another tool
    /// has (an editor's undo, SQL's COMMIT, a dataframe's query) that Quarry does another
    /// way, and that way, as `help` says it (`FunctionHelp.otherWords`).
    func habitHint(for message: String) -> String? {
        guard message.hasSuffix("')"), message.contains("attempt to call a nil value (global '"),
            let start = message.range(of: "(global '", options: .backwards)
        else { return nil }
        return FunctionHelp.otherWord(String(message[start.upperBound...].dropLast(2))).map { "; " + $0 }
    }

    /// For Lua's "attempt to compare number with nil": a predicate written without its
    /// quotes (`fetch("Observation", price > 1000)`, trial 31) is Lua comparing a global
    /// that does not exist; the call with the predicate quoted, read from the line.
    func unquotedPredicateHint(for message: String) -> String? {
        guard message.contains("attempt to compare "), message.contains(" nil"),
            let colon = message.firstIndex(of: ":"),
            let number = Int(message[message.index(after: colon)...].prefix { $0.isNumber }), number > 0,
            let chunk = loadedChunks["=" + message[..<colon]] ?? (try? String(contentsOfFile: String(message[..<colon]), encoding: .utf8))
        else { return nil }
        // Lines as Lua counts them: CR LF (one Character in Swift) and a lone CR end one too.
        let lines = chunk.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard number <= lines.count else { return nil }
        let line = String(lines[number - 1])
        let pattern = #"(\w+)\s*\(\s*("[^"]*"|'[^']*')\s*,\s*([A-Za-z_][\w.]*\s*(?:==|~=|!=|>=|<=|>|<)\s*[^,()"']+?)\s*\)"#
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
            let function = Range(match.range(at: 1), in: line), let entity = Range(match.range(at: 2), in: line),
            let written = Range(match.range(at: 3), in: line),
            ["fetch", "count", "first", "exists", "deleteall", "updateall", "watch", "summarize"].contains(String(line[function]))
        else { return nil }
        let predicate = line[written].replacingOccurrences(of: "~=", with: "!=")
        return "; a predicate is a string: \(line[function])(\(line[entity]), \"\(predicate)\")"
    }
}
