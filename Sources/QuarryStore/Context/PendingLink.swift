/// A link-table change not yet saved, in the table's own orientation.
package struct PendingLink {
    package let table: String
    package let source: ManagedObject
    package let target: ManagedObject
    package let isAdd: Bool
}
