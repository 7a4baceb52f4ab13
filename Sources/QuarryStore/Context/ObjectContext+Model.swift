/// `model("App.xcdatamodeld")`: a Core Data model's entities defined in a Quarry store,
/// as `entity` defines them (new entities created, existing ones migrated in place).
extension ObjectContext {
    /// Defines every entity of `model` (read from `path`, named in errors); returns their
    /// names. Everything is checked before anything is defined, so a model that does not
    /// fit the store changes nothing.
    @discardableResult
    public func define(model: CoreDataModel, from path: String) throws -> [String] {
        if coreData != nil {
            throw StoreError.invalidSchema(entity: model.entities.first?.name ?? "model",
                                           reason: "this is a Core Data store: its entities are its own model's")
        }
        // Parents before their sub-entities, so each is defined into a hierarchy that exists.
        let all = model.quarryEntities()
        let names = Set(all.map(\.name))
        var definitions: [EntityDescription] = []
        var placed: Set<String> = []
        while definitions.count < all.count {
            let ready = all.filter { !placed.contains($0.name) && ($0.parent.map { placed.contains($0) || !names.contains($0) } ?? true) }
            guard !ready.isEmpty else {
                let stuck = all.first { !placed.contains($0.name) }
                throw ModelFileError(.danglingReference, path: path, "entity \(stuck?.name ?? "?") is in a cycle of parents; nothing was defined")
            }
            for entity in ready { definitions.append(entity); placed.insert(entity.name) }
        }
        for definition in definitions {
            if let parent = definition.parent, !names.contains(parent), entitiesByName[parent] == nil {
                throw ModelFileError(.danglingReference, path: path, "entity \(definition.name) inherits from \(parent), which is neither in the model nor in the store; nothing was defined")
            }
        }
        for definition in definitions {
            guard let existing = entitiesByName[definition.name] else { continue }
            for attribute in definition.attributes {
                if let old = existing.attribute(named: attribute.name), old.type != attribute.type {
                    throw StoreError.migrationRefused(entity: definition.name,
                        reason: "\(path) gives '\(attribute.name)' the type \(attribute.type.rawValue), the store holds \(old.type.rawValue); nothing was defined")
                }
            }
        }
        for definition in definitions { try define(definition) }
        return definitions.map(\.name)
    }
}
