/// PostgreSQL as the registry sees it (`StoreRegistry.servers`): a `postgres://` URL.
enum PostgresServer: ServerStoreKind {
    static func claims(_ location: String) -> Bool { PostgresURL.isURL(location) }

    static func open(_ location: String, readOnly: Bool) throws -> ObjectContext {
        try ObjectContext(postgres: location, readOnly: readOnly)
    }

    static func withoutSecrets(in text: String) -> String { PostgresURL.withoutPasswords(in: text) }
}
