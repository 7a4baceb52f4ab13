import QuarryModel

/// What a PostgreSQL server (or libpq, connecting) refused, as data: the SQLSTATE when
/// the server gave one, the SQL when known, and the server's words; said after
/// "PostgreSQL: ", since Quarry's own words are SQLite's. The one `EngineFailure` of this
/// target.
package struct PostgresFailure: EngineFailure {
    package var sqlState: String?
    package var sql: String?
    /// The server's (or libpq's) words, unchanged.
    package var said: String
    /// The statement's parameter whose value the server refused (`$3`), from the error's
    /// context ("unnamed portal parameter $3 = '...'"): a save names its attribute.
    package var parameter: Int?
    /// The PL/pgSQL function the error came from, outermost first (`refuse()`), from the
    /// error's context ("PL/pgSQL function refuse() line 3 at RAISE"): a trigger's, which a
    /// write names (`PostgresStore+TriggerRefusals`).
    package var routine: String?

    package init(sqlState: String?, sql: String?, said: String, parameter: Int? = nil, routine: String? = nil) {
        self.sqlState = sqlState
        self.sql = sql
        self.said = said
        self.parameter = parameter
        self.routine = routine
    }

    /// The outermost PL/pgSQL function a server error's context names: its lines go from
    /// the innermost call out, so the last such line is the one the statement called (a
    /// trigger's function).
    package static func routine(inContext context: String?) -> String? {
        guard let context else { return nil }
        let marker = "PL/pgSQL function "
        guard let line = context.split(separator: "\n").last(where: { $0.contains(marker) }),
            let start = line.range(of: marker)
        else { return nil }
        let rest = line[start.upperBound...]
        let name = rest.range(of: " line ").map { rest[..<$0.lowerBound] } ?? rest
        return name.isEmpty ? nil : String(name)
    }

    /// The parameter a server error's context names (`... parameter $3 = '{x'`).
    package static func parameter(inContext context: String?) -> Int? {
        guard let context, let range = context.range(of: "parameter $") else { return nil }
        return Int(context[range.upperBound...].prefix { $0.isNumber })
    }

    package var code: String? { sqlState }

    package var message: String { "PostgreSQL: " + said }

    /// lock_not_available: a lock another session held past the wait.
    package var isBusy: Bool { sqlState == "55P03" }

    /// Class 08, connection exceptions; libpq's own loss has no SQLSTATE but says so.
    package var isConnectionLost: Bool {
        sqlState?.hasPrefix("08") == true || said.contains(PostgresConnection.lostNote)
    }
}

extension StoreError {
    /// The server's refusal (`PostgresFailure`).
    package static func postgres(sqlState: String?, sql: String?, message: String) -> StoreError {
        .engine(PostgresFailure(sqlState: sqlState, sql: sql, said: message))
    }

    /// The server's refusal, when the server refused (inside `.during` too).
    package var postgresFailure: PostgresFailure? { engineFailure as? PostgresFailure }
}

extension ConstraintViolation.EngineCode {
    /// A SQLSTATE the server gave; its words are named as PostgreSQL's.
    package static func sqlState(_ state: String) -> Self {
        Self(engine: "PostgreSQL", code: state, namedInMessages: true)
    }
}
