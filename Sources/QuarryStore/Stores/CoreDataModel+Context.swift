import QuarryModel

extension CoreDataModel {
    /// The open store's model for export and Swift: the entities `names` (all when nil).
    /// A Core Data store's own model is used as read (its views flatten inheritance);
    /// otherwise Quarry's entities are converted.
    public init(of context: ObjectContext, entities names: [String]? = nil) {
        let wanted = names.map(Set.init)
        if let model = context.store.modelAsRead {
            guard let wanted else {
                self = model
                return
            }
            self.init(
                entities: model.entities.filter { wanted.contains($0.name) },
                fetchRequests: model.fetchRequests.filter { wanted.contains($0.entity) })
            return
        }
        // Templates kept from a model go out with their entities.
        let templates = ((try? context.fetchTemplates()) ?? []).filter { wanted?.contains($0.entity) ?? true }
        self.init(entities: context.declaredEntities.filter { wanted?.contains($0.name) ?? true })
        fetchRequests = templates
    }
}
