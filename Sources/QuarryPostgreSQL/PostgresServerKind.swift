import QuarryModel
import QuarryStore

/// PostgreSQL as the registry sees it (`StoreRegistry.servers`): a `postgres://` URL, or
/// libpq's keyword/value connection string (`host=… dbname=…`, `PostgresKeywordValue`).
package enum PostgresServerKind: ServerStoreKind {
    package static func claims(_ location: String) -> Bool { PostgresURL.isURL(location) }

    /// Opens the schema a `postgres://` URL names (`PostgresURL`) as a store: its tables
    /// as entities, read on the server, with the schema first on its search path so
    /// Quarry's SQL names tables bare.
    package static func open(_ location: String, readOnly: Bool = false) throws -> (StoreConnection, any PersistentStore) {
        let address = try PostgresURL(location)
        let server: PostgresConnection
        do { server = try PostgresConnection(url: address.connectingString) } catch StoreError.engine(let failure as PostgresFailure) {
            let (state, message) = (failure.sqlState, failure.said)
            throw StoreError.postgres(sqlState: state, sql: nil, message: "cannot open \(address.shown): \(address.redacted(message))")
        }
        // Other sessions' commits are heard from here on (`PostgresConnection+Notifications`).
        try server.executeForSession("LISTEN \(PostgresConnection.channel)")
        server.announcedSchema = address.schema
        try server.executeForSession(
            "SELECT set_config('search_path', $1, false), set_config('default_transaction_read_only', 'on', false)",
            [.text(quoteIdentifier(address.schema))])
        // A value the server refuses at a save is reported with the parameter it came in
        // ("unnamed portal parameter $3"), which names the attribute
        // (`PostgresNumericOverflow.keeping`); a byte of the value at most (PostgreSQL 13 on).
        if server.serverVersion >= 130_000 {
            try server.executeForSession("SELECT set_config('log_parameter_max_length_on_error', '1', false)")
        }
        // No JIT for Quarry's own statements (PostgreSQL 11 on): the planner prices every
        // branch of the CASE a [c]/[d] fold is, where a row takes one, so a folded count
        // over a few million rows is compiled for seconds to run slower (2.3 s without,
        // 3.8 s with, over 3.4M flights); its counts and groups run alike either way. A
        // statement a person wrote runs with the server's setting (`prepareReadOnly`).
        if server.serverVersion >= 110_000 {
            try server.executeForSession("SELECT set_config('jit', 'off', false)")
        }
        let connection = StoreConnection(engine: PostgresEngine(server: server, url: address.shown), readOnly: readOnly)
        if readOnly, address.installsTriggers {
            throw StoreError.readOnly(operation: "notify=triggers")
        }
        return (connection, PostgresStore(schema: address.schema, installsTriggers: address.installsTriggers))
    }

    package static func withoutSecrets(in text: String) -> String { PostgresURL.withoutPasswords(in: text) }
}
