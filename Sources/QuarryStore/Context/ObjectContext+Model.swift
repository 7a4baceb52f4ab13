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
        if let sub = model.entities.first(where: { $0.parent != nil }) {
            // Quarry's own files do not hold hierarchies yet (Core Data stores do).
            throw ModelFileError(.unsupported, path: path,
                                 "entity \(sub.name) inherits from \(sub.parent ?? "?"): inheritance in a Quarry store is not supported yet; nothing was defined")
        }
        let definitions = model.quarryEntities()
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
