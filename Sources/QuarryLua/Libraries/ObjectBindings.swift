import CLua
import CQuarryShim
import QuarryFormat
import QuarryModel
import QuarryStore

/// The Lua side of objects' methods (also globals) and metamethods: tables of name → function
/// (`LuaBinding`), as lua.c keeps a library, that the runtime registers with one loop,
/// and the functions, each given the runtime it runs in.
enum ObjectBindings {
    /// Methods of objects; each but `entity` is also a global and `quarry.<name>(o)`,
    /// which attributes cannot shadow.
    static let objectMethods: [LuaBinding] = [
        LuaBinding("delete", luaObjectDelete),
        LuaBinding("objectID", luaObjectID),
        LuaBinding("entity", luaObjectEntity),
        LuaBinding("isInserted", luaObjectIsInserted),
        LuaBinding("isDeleted", luaObjectIsDeleted),
        LuaBinding("hasChanges", luaObjectHasChanges),
        LuaBinding("changes", luaObjectChanges)
    ]

    /// The object methods that are globals too (`delete(o)`, `objectID(o)`, ...).
    static let objectGlobals = objectMethods.filter { $0.name != "entity" }

    /// `o:refresh()` drops that object's unsaved changes; the global refresh() notices
    /// other processes' commits (and refresh(o) refreshes o).
    static let objectOnlyMethods: [LuaBinding] = [
        LuaBinding("refresh", luaObjectRefresh)
    ]

    /// The REPL shows an object as a one-row table, or one line per key when that
    /// would not fit (the prelude's quarry.show).
    static let objectLibrary: [LuaBinding] = [
        LuaBinding("__objecttable", luaObjecttable)
    ]

    static func luaObjectDelete(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        try runtime.context.delete(try runtime.currentObject(call, 1))
        // What the delete took besides the object (a join table's links), said now.
        for note in runtime.context.takeWriteNotes() { runtime.writeNotice("note: " + note) }
        return 0
    }

    static func luaObjectID(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 { call.push(try runtime.object(call, 1).objectID) }

    /// The row's own entity: objects are made as it (a SportCar fetched as a Car is a SportCar).
    static func luaObjectEntity(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        runtime.pushEntity(try runtime.object(call, 1).entity.name)
    }

    static func luaObjectIsInserted(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 { call.push(try runtime.object(call, 1).isInserted) }

    static func luaObjectIsDeleted(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        call.push(try runtime.object(call, 1).isPendingDelete)
    }

    static func luaObjectHasChanges(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 { call.push(try runtime.object(call, 1).hasChanges) }

    /// Changed keys to `{old, new}`: attributes' values, a to-one's object (or nil), a
    /// to-many's members as an array.
    static func luaObjectChanges(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let object = try runtime.object(call, 1)
        let changes = object.changes
        let relationships = object.isDeleted || object.isForeign(to: runtime.context) ? [] : try runtime.context.relationshipChanges(of: object)
        lua_createtable(call.state, 0, Int32(changes.count + relationships.count))
        // Each pair is `{old, new, n = 2}`, as table.pack makes it: a Lua table cannot
        // hold a trailing nil, so `n` says the new value is there, nil (`city = nil`);
        // `table.unpack(p, 1, p.n)` and the REPL's printer (`{"San Francisco", nil}`) read it.
        func pair() {
            lua_pushinteger(call.state, 2)
            LuaTable.setField(call.state, -2, "n")
        }
        for change in changes {
            lua_createtable(call.state, 2, 1)
            let day = object.keepsDays(change.key)
            pushAttributeValue(call.state, change.old, of: nil, day: day)
            lua_rawseti(call.state, -2, 1)
            pushAttributeValue(call.state, change.new, of: nil, day: day)
            lua_rawseti(call.state, -2, 2)
            pair()
            LuaTable.setField(call.state, -2, change.key)
        }
        for change in relationships {
            lua_createtable(call.state, 2, 1)
            for (index, members) in [change.old, change.new].enumerated() {
                runtime.pushMembers(members, isToMany: change.isToMany)
                lua_rawseti(call.state, -2, lua_Integer(index + 1))
            }
            pair()
            LuaTable.setField(call.state, -2, change.key)
        }
        return 1
    }

    static func luaObjectRefresh(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let object = try runtime.currentObject(call, 1)
        return call.push(try runtime.context.refresh(object))
    }

    static func luaObjecttable(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        // An entity shown at the prompt: its definition, broken between keys to the terminal.
        if let handle = swiftObject(call.state, 1, kind: .entity, as: EntityHandle.self) {
            return call.push(runtime.entityDefinition(handle.name, width: runtime.tableFormat.width))
        }
        let object = try runtime.object(call, 1)
        let entity = runtime.context.currentEntityDescription(of: object)
        // The object ID headed as a results table heads it (`ResultsTable.idHeader`).
        var headers = [
            ResultsTable.idHeader(attributes: object.values.map(\.key), storage: runtime.context.mapped(entity), in: runtime.context)
        ]
        var row: [Value] = [.text(object.objectID)]
        let days = DayAttributes(of: object.entity).names(in: runtime.context)
        for (key, value) in object.shownValues {
            headers.append(key)
            row.append(days.contains(key) ? value.shownAsDay() : value)
        }
        for relationship in entity.toOneRelationships {
            headers.append(relationship.name)
            row.append((try? runtime.context.relatedObject(relationship.name, of: object))?.map { .text($0.objectID) } ?? .null)
        }
        return call.push(TextTable.record(headers: headers, values: row, format: runtime.tableFormat))
    }

    static let objectMetamethods: [LuaBinding] = [
        LuaBinding("__index", luaObjectIndex),
        LuaBinding("__newindex", luaObjectNewindex),
        LuaBinding("__tostring", luaObjectTostring)
    ]

    static func luaObjectIndex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let key = try call.string(2)
        noteRowRead(call.state, 1, key)
        let object = try runtime.object(call, 1)
        if let attribute = object.entity.attribute(named: key) {
            // The attribute is known: its value read without looking it up again, and
            // whether its column keeps days asked only of a date.
            let value = object.currentValue(key)
            let day: Bool
            if case .date = value { day = object.keepsDays(key) } else { day = false }
            pushAttributeValue(call.state, value, of: attribute, day: day)
            return 1
        }
        if object.entity.compositeNames.contains(key) {
            try CompositeValues.push(call.state, key, elements: object.entity.compositeElements(of: key)) { try object.value(forKey: $0.name) }
            return 1
        }
        // A closed store's object keeps its attributes and methods, nothing more.
        guard !object.isForeign(to: runtime.context) else {
            if runtime.pushMethod(.object, key) { return 1 }
            throw StoreError.closed
        }
        if let relationship = runtime.context.entitiesRelationship(key, of: object) {
            // A name the relationship also answers to reads it under its own name.
            if relationship.isToMany {
                pushSwiftObject(call.state, RelationshipSet(object: object, name: relationship.name), kind: .set)
                return 1
            }
            return runtime.pushObject(try runtime.context.relatedObject(relationship.name, of: object))
        }
        if runtime.pushMethod(.object, key) { return 1 }
        // A sibling sub-entity's key, which their parent lists: not on this object's
        // entity, so nil, as a predicate over the parent reads it on this row.
        if runtime.context.isOtherSubentitysKey(key, of: object) { return call.pushNil() }
        throw runtime.unknownKey(key, of: object)
    }

    static func luaObjectNewindex(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let object = try runtime.currentObject(call, 1)
        let key = try call.string(2)
        if runtime.context.entitiesRelationship(key, of: object) != nil {
            try runtime.assignRelationship(object, key, valueAt: 3, call)
            return 0
        }
        // The entity read once and the key looked up once (each a copy and a hash).
        let entity = object.entity
        let attribute = entity.attribute(named: key)
        if attribute == nil, entity.compositeNames.contains(key) {
            let values = try CompositeValues.values(call.state, 3, key, entity: entity.name, elements: entity.compositeElements(of: key))
            try CompositeValues.assign(values, to: object)
            return 0
        }
        guard let attribute else { throw runtime.unknownKey(key, of: object) }
        guard let value = try attributeValue(call.state, 3, for: attribute) else {
            throw LuaError.cannotHold(object.entity.name, key, call.typeName(3))
        }
        // The row userdata holding its object (`adopt`), the only one of its row while no
        // row has two (`objectValuesChanged`).
        if isRowHoldingItsObject(call.state, 1), quarry_row_twins(call.state) == 0 {
            runtime.changedThroughItsRow = ObjectIdentifier(object)
        }
        defer { runtime.changedThroughItsRow = nil }
        do {
            try object.setValue(value, forKey: key)
        } catch {
            throw runtime.explainingDateText(error, object.entity, [key: value])
        }
        return 0
    }

    static func luaObjectTostring(_ runtime: QuarryRuntime, _ call: LuaCall) throws -> Int32 {
        let object = try runtime.object(call, 1)
        // A double as `print(o.x)` and a table show it (`CellText.real`, Lua's `%.14g`): one
        // value, one rendering wherever a person reads it.
        var fields = object.values.map { field in
            if case .real(let d) = field.value { return "\(field.key) = \(CellText.real(d))" }
            return "\(field.key) = \(literal(field.value))"
        }
        // Relationships are read through the open store: not for a closed store's object.
        let relationships = !object.isForeign(to: runtime.context) ? runtime.context.currentEntityDescription(of: object).toOneRelationships : []
        for relationship in relationships {
            let target = try? runtime.context.relatedObject(relationship.name, of: object)
            fields.append("\(relationship.name) = \(target.map { $0.objectID } ?? "nil")")
        }
        // One whose delete was saved (or whose insert was rolled back) is in no store now:
        // it says so, rather than print as a row that is there.
        let gone = object.isDeleted && object.managedObjectContext == nil ? " (deleted)" : ""
        // Names come from files too: no control character reaches the terminal.
        return call.push(ErrorRendering.escaped("\(object.objectID)\(gone) {\(fields.joined(separator: ", "))}"))
    }
}
