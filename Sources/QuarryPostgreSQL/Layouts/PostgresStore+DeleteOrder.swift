import QuarryStore

/// The order in which PostgreSQL carries out the ON DELETE actions of the keys naming a
/// table when one of its rows goes, for the tables Quarry did not create
/// (`EntityStorage.referencingKeys`), taken from the schema's description
/// (`PostgresStore+Catalog`) by the rule here (`ForeignSchema+DeleteOrder`), as a SQLite
/// file's are by SQLite's (`ForeignKeyOrder`). A key's action is an internal trigger on
/// the parent table, and a row's triggers fire in the order of their names
/// (`RI_ConstraintTrigger_a_<oid>`: the key made first acts first); a cascade's own
/// deletes run theirs before the next trigger fires. Unlike SQLite, a NO ACTION key is
/// checked at its turn too, as RESTRICT is; one DEFERRABLE INITIALLY DEFERRED at the
/// commit; an action (CASCADE, SET NULL, SET DEFAULT) is never deferred. So a RESTRICT or
/// NO ACTION key declared before a CASCADE key of the same child refuses the parent's
/// delete, and one declared after it does not.
extension PostgresStore {
    /// PostgreSQL's rule, for keys whose `made` follows their action triggers' names.
    package static let deleteOrder = ForeignSchema.DeleteOrder(
        lastMadeFirst: false, noAction: .restrict, defersActions: false, namesIgnoreCase: false)

    /// Gives each of `tables` (entities) the keys of the others naming it, in order.
    func rememberReferencingKeys(of tables: Set<String>, catalog: ForeignSchema, session: StoreSession) {
        let keys = catalog.referencingKeys(of: tables.sorted(), children: tables, order: Self.deleteOrder)
        for (parent, list) in keys {
            guard let entity = session.managedObjectModel.entitiesByName[parent] else { continue }
            var storage = session.mapped(entity)
            storage.referencingKeys = list
            session.remember(entity, storage: storage)
        }
    }
}
