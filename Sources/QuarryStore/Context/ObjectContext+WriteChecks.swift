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
        try store.refuseUnfaithfulWrite(operation, in: self)
        try store.willWrite(operation, in: self)
    }
}
