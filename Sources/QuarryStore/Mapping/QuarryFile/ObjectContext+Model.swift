import GRDB

/// `model("App.xcdatamodeld")`: a Core Data model's entities defined in a Quarry store,
/// as `entity` defines them (new entities created, existing ones migrated in place).
extension ObjectContext {
    /// Defines every entity of `model` (read from `path`, named in errors); returns their
    /// names. Everything is checked before anything is defined, so a model that does not
    /// fit the store changes nothing.
    @discardableResult
    public func define(model: CoreDataModel, from path: String) throws -> [String] {
        try store.refuseDefining(model.entities.first?.name ?? "model", whole: true)
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
            if let parent = definition.parent, !names.contains(parent), managedObjectModel.entitiesByName[parent] == nil {
                throw ModelFileError(.danglingReference, path: path, "entity \(definition.name) inherits from \(parent), which is neither in the model nor in the store; nothing was defined")
            }
        }
        for definition in definitions {
            guard let existing = managedObjectModel.entitiesByName[definition.name] else { continue }
            for attribute in definition.attributes {
                if let old = existing.attribute(named: attribute.name), old.type != attribute.type {
                    throw StoreError.migrationRefused(entity: definition.name,
                        reason: "\(path) gives '\(attribute.name)' the type \(attribute.type.rawValue), the store holds \(old.type.rawValue); nothing was defined")
                }
            }
        }
        // What this store cannot hold (a PostgreSQL schema: inheritance), before any is defined.
        for definition in definitions { try store.refuse(definition) }
        try rehearse(definitions, from: path)
        try withDefinitionIndex {
            for definition in definitions {
                try ModelFileError.stopIfAsked(path, at: "entity \(definition.name)")
                try define(definition)
            }
        }
        try keep(templates: model.fetchRequests)
        return definitions.map(\.name)
    }
}

extension ObjectContext {
    /// Defines `definitions` first in an empty in-memory store that holds this store's
    /// declarations, so a refusal that `define` finds only while defining (a key that
    /// clashes with an ancestor's, a reserved name) comes before anything is written
    /// here. Refusals that depend on rows (a required attribute with no default) can
    /// still come later, from the store itself.
    private func rehearse(_ definitions: [EntityDescription], from path: String) throws {
        let rehearsal = try ObjectContext(path: nil)
        defer { rehearsal.close() }
        try rehearsal.withDefinitionIndex {
            for name in managedObjectModel.entityOrder {
                // What the rehearsal cannot hold (a relationship to a table of the file) is
                // left out; only the model's own definitions must pass.
                if let declared = managedObjectModel.declaredByName[name] { _ = try? rehearsal.define(declared) }
            }
            for definition in definitions {
                try ModelFileError.stopIfAsked(path, at: "entity \(definition.name)")
                do { _ = try rehearsal.define(definition) } catch {
                    try ModelFileError.stopIfAsked(path, at: "entity \(definition.name)")
                    throw ModelFileError(.unsupported, path: path, "\(error); nothing was defined")
                }
            }
        }
    }
}

/// A model's fetch request templates (`fetch{ template = "name", vars = { ... } }`): a
/// Core Data store's come from its own model; `model()` keeps a model's with the store
/// (`PersistentStore.keep(templates:context:)`), so they survive reopening.
extension ObjectContext {
    /// The store's fetch request templates, by name.
    public func fetchTemplates() throws -> [CoreDataFetchRequest] {
        if let model = store.modelAsRead { return model.fetchRequests }
        return try store.keptTemplates(context: self).sorted { $0.name < $1.name }
    }

    /// Keeps `templates` (those of entities the store has), replacing any of the same name.
    func keep(templates: [CoreDataFetchRequest]) throws {
        let kept = templates.filter { managedObjectModel.entitiesByName[$0.entity] != nil }
        guard !kept.isEmpty else { return }
        try store.keep(templates: kept, context: self)
    }
}
