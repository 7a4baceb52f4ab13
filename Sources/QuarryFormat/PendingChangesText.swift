import Foundation
import QuarryModel
import QuarryStore

/// What `.changes` prints: each unsaved object under its kind (inserted, updated,
/// deleted), one a line, with what changed as `o:changes()` gives it: an updated object's
/// changed keys as `key: old → new`, an inserted one's values, a deleted one alone (its
/// kind says it). Values read as the REPL shows them (numbers as Lua's `tostring`, text
/// quoted as a table's strings print, a column of days as its day); a to-one as the
/// object's ID, a to-many as its members' IDs.
public enum PendingChangesText {
    /// Text longer than this is cut (with "…"): a change is a line.
    static let textLimit = 40
    /// A to-many's members named before "…": a line, not a list of thousands.
    static let memberLimit = 5
    /// A kind with more objects than this, or objects of several entities, says first how
    /// many, by entity (a cascade's deletes: `deleted: 160 objects (1 City, 77 Location,
    /// 82 Node)`), and lists them on the lines below, where they would otherwise scroll
    /// away uncounted.
    static let countedAbove = 10

    public static func lines(_ context: ObjectContext) -> [String] {
        let pending = context.pendingChanges
        var lines: [String] = []
        for (label, objects) in [("inserted", pending.inserted), ("updated", pending.updated), ("deleted", pending.deleted)] {
            guard !objects.isEmpty else {
                lines.append("\(label): none")
                continue
            }
            let indent = String(repeating: " ", count: label.count + 2)
            var byEntity: [String: Int] = [:]
            for object in objects { byEntity[object.entity.name, default: 0] += 1 }
            let counted = objects.count > countedAbove || byEntity.count > 1
            if counted {
                let parts = byEntity.sorted { $0.key < $1.key }.map { "\($0.value) \(ErrorRendering.escaped($0.key))" }
                lines.append("\(label): \(objects.count) objects (\(parts.joined(separator: ", ")))")
            }
            for (i, object) in objects.enumerated() {
                let changed = label == "deleted" ? [] : changes(of: object, in: context)
                let text = ErrorRendering.escaped(object.objectID) + (changed.isEmpty ? "" : "  " + changed.joined(separator: ", "))
                lines.append((i == 0 && !counted ? label + ": " : indent) + text)
            }
        }
        return lines
    }

    /// `key: old → new` for each changed attribute and relationship of an updated object;
    /// `key: value` for each value of an inserted one (nil ones left out).
    static func changes(of object: ManagedObject, in context: ObjectContext) -> [String] {
        var parts: [String] = []
        if object.isInserted {
            for (key, value) in object.values where !value.isNull {
                parts.append("\(key): \(shown(value, days: object.keepsDays(key)))")
            }
        } else {
            for change in object.changes {
                let days = object.keepsDays(change.key)
                parts.append("\(change.key): \(shown(change.old, days: days)) → \(shown(change.new, days: days))")
            }
        }
        // A relationship that cannot be read now (a store gone) is left out, not an error.
        let relationships = object.isForeign(to: context) ? [] : (try? context.relationshipChanges(of: object)) ?? []
        for change in relationships {
            let new = members(change.new, isToMany: change.isToMany)
            parts.append(object.isInserted ? "\(change.key): \(new)" : "\(change.key): \(members(change.old, isToMany: change.isToMany)) → \(new)")
        }
        return parts
    }

    /// A value as the REPL shows it in a table of Lua values: text quoted (escaped), a
    /// real number as `tostring` writes it.
    static func shown(_ value: Value, days: Bool) -> String {
        if days, case .date(let seconds) = value, let day = Value.dayText(seconds) { return day }
        guard case .text(let s) = value else { return ErrorRendering.escaped(CellText.display(value)) }
        let quoted = CellText.clip(s, textLimit).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + ErrorRendering.escaped(quoted) + "\""
    }

    /// A to-one's object ID (or nil); a to-many's IDs in braces, as a Lua list prints.
    static func members(_ objects: [ManagedObject], isToMany: Bool) -> String {
        guard isToMany else { return objects.first.map { ErrorRendering.escaped($0.objectID) } ?? "nil" }
        let named = objects.prefix(memberLimit).map { ErrorRendering.escaped($0.objectID) }
        let more = objects.count > memberLimit ? ", … (\(objects.count) in all)" : ""
        return "{" + named.joined(separator: ", ") + more + "}"
    }
}
