/// The order in which an engine carries out the ON DELETE actions of the keys naming a
/// table when one of its rows goes, and when each key is checked
/// (`EntityStorage.referencingKeys`), decided once from the description: the keys are
/// grouped by the table they name and each is given its check from its action and
/// deferral. An engine says only its rule (`DeleteOrder`): which of the keys it made
/// acts first, and when it checks a NO ACTION key. The order matters where a RESTRICT (or,
/// on PostgreSQL, a NO ACTION) key of a child sits before or after a CASCADE key of the
/// same child: checked at its turn, it refuses the parent's delete only while the cascade
/// has not yet taken the child away.
extension ForeignSchema {
    /// An engine's rule for the order of ON DELETE actions (SQLite's in `ForeignKeyOrder`,
    /// PostgreSQL's in `PostgresStore+DeleteOrder`).
    package struct DeleteOrder: Sendable {
        /// Whether the key made last (`ForeignKey.made`) acts first, else the one made first.
        let lastMadeFirst: Bool
        /// When a NO ACTION key not deferred is checked: at its turn, or at the statement's end.
        let noAction: EntityStorage.ReferencingKey.Check
        /// Whether DEFERRABLE INITIALLY DEFERRED defers the check of a key whose action
        /// leaves no child behind (CASCADE, SET NULL, SET DEFAULT) as well as a NO ACTION
        /// key's; a RESTRICT key is checked at its turn all the same.
        let defersActions: Bool
        /// Whether a key names its parent in any case (`REFERENCES artist` names `Artist`).
        let namesIgnoreCase: Bool

        package init(lastMadeFirst: Bool, noAction: EntityStorage.ReferencingKey.Check, defersActions: Bool, namesIgnoreCase: Bool) {
            self.lastMadeFirst = lastMadeFirst
            self.noAction = noAction
            self.defersActions = defersActions
            self.namesIgnoreCase = namesIgnoreCase
        }
    }

    /// The single-column keys of `children` (every table when nil) naming each of
    /// `parents`, by parent, in the order their actions run under `order`. A key the engine
    /// gave no place (`made` nil) is left out.
    package func referencingKeys(of parents: [String], children: Set<String>? = nil, order: DeleteOrder) -> [String: [EntityStorage.ReferencingKey]] {
        let name = { (table: String) in order.namesIgnoreCase ? table.lowercased() : table }
        var byParent: [String: [(made: Int, key: EntityStorage.ReferencingKey)]] = [:]
        for relation in relations.values where !relation.isView && children?.contains(relation.name) ?? true {
            for key in relation.foreignKeys where key.columns.count == 1 {
                guard let made = key.made, let column = key.columns.first else { continue }
                let referencing = EntityStorage.ReferencingKey(child: relation.name, column: column, check: Self.check(of: key, order: order))
                byParent[name(key.parent), default: []].append((made, referencing))
            }
        }
        var keys: [String: [EntityStorage.ReferencingKey]] = [:]
        for parent in parents {
            guard let found = byParent[name(parent)] else { continue }
            keys[parent] = found.sorted { order.lastMadeFirst ? $0.made > $1.made : $0.made < $1.made }.map(\.key)
        }
        return keys
    }

    /// When `key` is checked as a row it names goes.
    static func check(of key: ForeignKey, order: DeleteOrder) -> EntityStorage.ReferencingKey.Check {
        switch key.onDelete.uppercased() {
        case "RESTRICT": return .restrict
        case "CASCADE", "SET NULL", "SET DEFAULT": return key.deferred && order.defersActions ? .commit : .statement
        default: return key.deferred ? .commit : order.noAction
        }
    }
}
