import QuarryModel

/// The order a store keeps the members of a to-many relationship in (a Core Data store's
/// ordered relationships); every other store keeps none.
package protocol StoreOrdering: AnyObject {
    /// Whether a to-many relationship keeps an order in the store.
    func isOrdered(_ relationship: String, of entity: String) -> Bool
    /// `member` was just pointed at a new owner through a to-one relationship.
    func noteAddition(_ member: ManagedObject)
    /// Unsaved members of an ordered relationship, in the order they were added.
    func inAdditionOrder(_ members: [ManagedObject]) -> [ManagedObject]
    /// The saved members of `owner.name`, in the order the store keeps them.
    func inStoredOrder(_ saved: [ManagedObject], _ name: String, of owner: ManagedObject, session: StoreSession) throws -> [ManagedObject]
}

/// What most stores answer alike.
extension StoreOrdering {
    package func isOrdered(_ relationship: String, of entity: String) -> Bool { false }
    package func noteAddition(_ member: ManagedObject) {}
    package func inAdditionOrder(_ members: [ManagedObject]) -> [ManagedObject] { members }
    package func inStoredOrder(_ saved: [ManagedObject], _ name: String, of owner: ManagedObject, session: StoreSession) throws -> [ManagedObject] {
        saved
    }
}
