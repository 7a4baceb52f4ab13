import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStore

/// The values a save's triggers wrote reach the objects in use, as Core Data's trigger
/// functions bring them to its objects: a derived attribute (`derivedCameraCaptureDevice`)
/// or a count a trigger keeps (`ZPERSON.ZFACECOUNT` as faces come and go).
extension CoreDataStore {
    /// Before a save: notices left from a write that did not commit (or from a batch
    /// change, whose objects are read again anyway) are dropped.
    func forgetTriggerNotices(in session: StoreSession) {
        _ = session.connection.coreData.triggerNotices.drain()
    }

    /// After a save committed: each notice's value becomes its object's stored value (an
    /// object not in use is read afresh when next fetched; a name that is no attribute of
    /// the row's entity is passed over).
    func applyTriggerNotices(in session: StoreSession) {
        let notices = session.connection.coreData.triggerNotices.drain()
        guard !notices.isEmpty else { return }
        let names = Dictionary(entities.map { ($0.code, $0.entity.name) }, uniquingKeysWith: { first, _ in first })
        for notice in notices {
            guard let name = names[notice.entity], let object = session.registeredObject(entity: name, primaryKey: notice.key),
                let entity = session.managedObjectModel.entitiesByName[object.entity.name],
                let attribute = attribute(notice.name, of: entity)
            else { continue }
            object.committed[attribute.name] = attribute.type.decode(Value(notice.value))
        }
    }

    /// The attribute a trigger names: by the model's name (derived attributes' triggers),
    /// or by its column (count triggers), suffixed for a sibling's as the store keeps it.
    private func attribute(_ name: String, of entity: EntityDescription) -> AttributeDescription? {
        if let attribute = entity.attribute(named: name) { return attribute }
        let wanted = name.uppercased()
        return entity.attributes.first { attribute in
            (attributeColumns[entity.name]?[attribute.name] ?? "Z" + attribute.name).uppercased() == wanted
        }
    }
}
