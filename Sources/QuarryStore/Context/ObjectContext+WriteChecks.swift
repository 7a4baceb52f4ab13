import QuarryModel

/// Every path that writes an entity's rows passes the same checks, in one place, before
/// anything is written (docs/design.md, "Write paths"): a read-only session refuses it;
/// the store refuses a write its owner would not make that way (a Core Data store
/// mirrored to CloudKit without history, history Quarry cannot write as Core Data does, a
/// trigger calling a function Quarry lacks); and the store makes what it makes only for
/// writing (a Core Data store's triggers).
extension ObjectContext {
    /// `operation` names the path in a refusal: `save`, `updateall`, `deleteall`, `import`.
    package func checkWrite(_ operation: String) throws {
        if isReadOnly { throw StoreError.readOnly(operation: operation) }
        try store.refuseUnfaithfulWrite(operation, in: session)
        try store.willWrite(operation, in: session)
    }
}

/// A store that keeps decimals as doubles (SQLite's REAL columns, Core Data's too:
/// `SQLDialect.keepsDecimalsAsDoubles`) holds only the decimals a double holds. One with
/// more digits would be rounded silently by the write and then answer predicates as
/// another number than the one the object showed, so every write path refuses it
/// before anything is written (save, updateall; an import into SQLite, where its cells
/// become doubles: `ImportRequest+SQLite`), naming where it is.
extension ObjectContext {
    /// Why `value` of `entity.attribute` cannot be written as it is, in a phrase that
    /// follows its place ("Item.price of Item/t3"); nil when the store keeps it exactly.
    package func inexactDecimal(_ value: Value, of attribute: AttributeDescription) -> String? {
        guard attribute.type == .decimal, case .decimal(let text) = value, sqlDialect.keepsDecimalsAsDoubles,
            let why = DecimalText.inexactAsDouble(text)
        else { return nil }
        return "is decimal \(text), \(why)"
    }

    /// Refuses a write of `values` to `entity`'s row (`updateall`), in one line.
    package func refuseInexactDecimals(_ values: [(String, Value)], of entity: EntityDescription, operation: String) throws {
        for (name, value) in values {
            guard let attribute = entity.attribute(named: name), let why = inexactDecimal(value, of: attribute) else { continue }
            throw StoreError.validation(message: "\(operation): \(entity.name).\(name) \(why); nothing was written")
        }
    }
}
