import Foundation
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// The SQL functions Core Data registers on its connections, which its stores' triggers
/// call: the triggers of derived attributes (`Z_DA_...`) do their work in plain SQL, then
/// tell Core Data's in-memory objects the value they wrote through
/// `NSCoreDataDATrigger...`; a derived attribute `now()` reads `NSCoreDataNow()`. Quarry
/// registers equivalents, so the triggers run and do their SQL: the notices are kept in
/// the connection's `TriggerNoticeLog` and reach the objects in use once the save
/// committed, as Core Data's reach its objects. A trigger that calls a function of Core
/// Data's that is not here cannot run: a save is refused, naming it, before anything is
/// written.
extension CoreDataStore {
    /// The notices a trigger sends about a value it wrote (five arguments: table, entity,
    /// key, attribute, value); they return nothing.
    static let triggerNotices = [
        "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
        "NSCoreDataDATriggerUpdatedAffectedObjectValue",
        "NSCoreDataTriggerUpdateAffectedObjectValue"
    ]

    /// `NSCoreDataNow()`: the time now, in Core Data's encoding (seconds since 2001).
    static let now = DatabaseFunction("NSCoreDataNow", argumentCount: 0, pure: false) { _ in
        Date().timeIntervalSinceReferenceDate
    }

    /// Every SQL function a Core Data store's views and triggers need (their names; the
    /// notices here keep nothing).
    public static let sqlFunctions: [DatabaseFunction] = sqlFunctions(noting: nil)

    /// Every SQL function a Core Data store's views and triggers need, for one connection
    /// whose trigger notices go to `log`. A notice returns NULL, as the triggers' SELECT
    /// discards it.
    public static func sqlFunctions(noting log: TriggerNoticeLog?) -> [DatabaseFunction] {
        [uuidBlob, now]
            + triggerNotices.map { name in
                DatabaseFunction(name, argumentCount: 5, pure: false) { arguments in
                    log?.note(arguments)
                    return nil as DatabaseValue?
                }
            }
    }

    /// The names of Core Data's functions Quarry provides, folded as SQLite folds them.
    static let providedFunctions: Set<String> = Set((triggerNotices + ["NSCoreDataNow"]).map { $0.lowercased() })

    /// `triggersCallingMissingFunctions`, read at the first write and kept.
    func triggersMissingFunctions(in session: StoreSession) throws -> [String] {
        if let known = missingFunctionTriggers { return known }
        let found = try session.connection.read { db in try Self.triggersCallingMissingFunctions(db) }
        missingFunctionTriggers = found
        return found
    }

    /// The store's triggers that call a function of Core Data's (a name beginning `NS`)
    /// that Quarry does not provide, as "trigger (function)".
    static func triggersCallingMissingFunctions(_ db: Database) throws -> [String] {
        var found: [String] = []
        for row in try Row.fetchAll(db, sql: "SELECT name, sql FROM main.sqlite_master WHERE type = 'trigger' ORDER BY name") {
            guard let name = String.fromDatabaseValue(row[0] as DatabaseValue), let sql = String.fromDatabaseValue(row[1] as DatabaseValue) else {
                continue
            }
            for function in calledFunctions(sql) where function.hasPrefix("NS") && !providedFunctions.contains(function.lowercased()) {
                found.append("\(name) (\(function))")
            }
        }
        return found
    }

    /// The names an SQL text calls as functions: identifiers followed by `(`, outside
    /// quotes (a rough reading that is enough to find a missing function before SQLite does).
    public static func calledFunctions(_ sql: String) -> [String] {
        var names: [String] = []
        var word = ""
        var quote: Character?
        var pending: String?
        for c in sql {
            if let q = quote {
                if c == q { quote = nil }
                continue
            }
            if c.isLetter || c.isNumber || c == "_" {
                word.append(c)
                pending = nil
                continue
            }
            if !word.isEmpty {
                pending = word
                word = ""
            }
            if c == "(", let name = pending, !names.contains(name) { names.append(name) }
            if !c.isWhitespace { pending = nil }
            if c == "'" || c == "\"" || c == "`" { quote = c }
        }
        return names
    }
}
