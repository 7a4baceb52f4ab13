import QuarryModel
import QuarryStore

/// A write a trigger of the schema refused (its `RAISE`, or a function it calls that the
/// database lacks, as Calibre's `title_sort` is lacking outside Calibre), named by the
/// trigger, as a SQLite file's save names the trigger that calls a function SQLite lacks
/// (`TriggerFunctions`): the server's words say only the function the trigger runs. Each
/// write (a save, `updateall`, `deleteall`, an import) says it alike, after its operation.
extension PostgresStore {
    /// `error` with the triggers that run `routine` named after the server's words; as it
    /// is when it came from no trigger's function. Asked after the write's transaction
    /// ended, as a read of its own.
    func namingTriggers(_ error: any Error, server: PostgresConnection) -> any Error {
        switch error {
        case StoreError.during(let operation, let inner):
            return StoreError.during(operation: operation, namingTriggers(inner, server: server) as? StoreError ?? inner)
        case StoreError.engine(let failure as PostgresFailure):
            guard let note = triggerNote(failure.routine, server: server) else { return error }
            var named = failure
            named.said += note
            return StoreError.engine(named)
        default:
            return error
        }
    }

    /// " (trigger t_refuse on t runs refuse(); nothing was written)", naming at most three
    /// triggers of the database that run `routine`; nil when none does.
    func triggerNote(_ routine: String?, server: PostgresConnection) -> String? {
        guard let routine, server.transactionDepth == 0,
            let rows = try? server.execute(
                """
                SELECT t.tgname::text, c.relname::text FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
                WHERE NOT t.tgisinternal AND t.tgfoid = pg_catalog.to_regprocedure($1) ORDER BY 2, 1
                """, [.text(routine)]
            ).rows,
            !rows.isEmpty
        else { return nil }
        let named = rows.prefix(3).compactMap { row -> String? in
            guard let trigger = row[0].textValue, let table = row[1].textValue else { return nil }
            return "\(trigger) on \(table)"
        }
        let more = rows.count > 3 ? " and \(rows.count - 3) more" : ""
        return " (trigger \(named.joined(separator: ", "))\(more) \(rows.count == 1 ? "runs" : "run") \(routine); nothing was written)"
    }
}
