import CLua
import CQuarryShim
import QuarryFormat
import QuarryStore

extension QuarryRuntime {
    /// Methods of objects; each but `entity` is also a global and `quarry.<name>(o)`,
    /// which attributes cannot shadow.
    static let objectMethods: [LuaBinding] = [
        LuaBinding("delete", QuarryRuntime.luaObjectDelete),
        LuaBinding("objectID", QuarryRuntime.luaObjectID),
        LuaBinding("entity", QuarryRuntime.luaObjectEntity),
        LuaBinding("isInserted", QuarryRuntime.luaObjectIsInserted),
        LuaBinding("isDeleted", QuarryRuntime.luaObjectIsDeleted),
        LuaBinding("hasChanges", QuarryRuntime.luaObjectHasChanges),
        LuaBinding("changes", QuarryRuntime.luaObjectChanges),
    ]

    /// `o:refresh()` drops that object's unsaved changes; the global refresh() notices
    /// other processes' commits (and refresh(o) refreshes o).
    static let objectOnlyMethods: [LuaBinding] = [
        LuaBinding("refresh", QuarryRuntime.luaObjectRefresh),
    ]

    /// The REPL shows an object as a one-row table, or one line per key when that
    /// would not fit (the prelude's quarry.show).
    static let objectLibrary: [LuaBinding] = [
        LuaBinding("__objecttable", QuarryRuntime.luaObjecttable),
    ]

    func installObjectFunctions() {
        register(Self.objectLibrary)
        registerMethods(.object, Self.objectMethods + Self.objectOnlyMethods)
        register(Self.objectMethods.filter { $0.name != "entity" })
    }

    // MARK: Bindings

    func luaObjectDelete(_ call: LuaCall) throws -> Int32 {
        try context.delete(try currentObject(call, 1))
        return 0
    }

    func luaObjectID(_ call: LuaCall) throws -> Int32 { call.push(try object(call, 1).objectID) }

    /// The row's own entity: objects are made as it (a SportCar fetched as a Car is a SportCar).
    func luaObjectEntity(_ call: LuaCall) throws -> Int32 { pushEntity(try object(call, 1).entity.name) }

    func luaObjectIsInserted(_ call: LuaCall) throws -> Int32 { call.push(try object(call, 1).isInserted) }

    func luaObjectIsDeleted(_ call: LuaCall) throws -> Int32 { call.push(try object(call, 1).isDeleted) }

    func luaObjectHasChanges(_ call: LuaCall) throws -> Int32 { call.push(try object(call, 1).hasChanges) }

    func luaObjectChanges(_ call: LuaCall) throws -> Int32 {
        let changes = try object(call, 1).changes
        lua_createtable(call.state, 0, Int32(changes.count))
        for change in changes {
            lua_createtable(call.state, 2, 0)
            pushValue(call.state, change.old)
            lua_rawseti(call.state, -2, 1)
            pushValue(call.state, change.new)
            lua_rawseti(call.state, -2, 2)
            LuaTable.setField(call.state, -2, change.key)
        }
        return 1
    }

    func luaObjectRefresh(_ call: LuaCall) throws -> Int32 {
        let object = try currentObject(call, 1)
        return call.push(try context.refresh(object))
    }

    func luaObjecttable(_ call: LuaCall) throws -> Int32 {
        let object = try self.object(call, 1)
        let entity = context.currentEntityDescription(of: object)
        var headers = ["id"], row: [Value] = [.text(object.objectID)]
        for (key, value) in object.values { headers.append(key); row.append(value) }
        for relationship in entity.toOneRelationships {
            headers.append(relationship.name)
            row.append((try? context.relatedObject(relationship.name, of: object))?.map { .text($0.objectID) } ?? .null)
        }
        return call.push(TextTable.record(headers: headers, values: row, format: tableFormat))
    }

    func objectMetamethods() -> [(String, LuaFunctionBody)] {
        [
            ("__index", { [unowned self] call in
                let key = try call.string(2)
                noteRowRead(call.state, 1, key)
                let object = try self.object(call, 1)
                if let attribute = object.entity.attribute(named: key) {
                    pushAttributeValue(call.state, try object.value(forKey: key), of: attribute); return 1
                }
                // A closed store's object keeps its attributes and methods, nothing more.
                guard !object.isForeign(to: self.context) else {
                    if self.pushMethod(.object, key) { return 1 }
                    throw StoreError.closed
                }
                if let relationship = self.context.entitiesRelationship(key, of: object) {
                    if relationship.isToMany {
                        pushSwiftObject(call.state, RelationshipSet(object: object, name: key), kind: .set)
                        return 1
                    }
                    return self.pushObject(try self.context.relatedObject(key, of: object))
                }
                if self.pushMethod(.object, key) { return 1 }
                throw object.entity.unknownKey(key)
            }),
            ("__newindex", { [unowned self] call in
                let object = try self.currentObject(call, 1)
                let key = try call.string(2)
                if self.context.entitiesRelationship(key, of: object) != nil {
                    try self.assignRelationship(object, key, valueAt: 3, call)
                    return 0
                }
                guard let value = try attributeValue(call.state, 3, for: object.entity.attribute(named: key)) else {
                    throw LuaError.cannotHold(object.entity.name, key, call.typeName(3))
                }
                try object.setValue(value, forKey: key)
                return 0
            }),
            ("__tostring", { [unowned self] call in
                let object = try self.object(call, 1)
                var fields = object.values.map { "\($0.key) = \(literal($0.value))" }
                // Relationships are read through the open store: not for a closed store's object.
                let relationships = !object.isForeign(to: self.context) ? self.context.currentEntityDescription(of: object).toOneRelationships : []
                for relationship in relationships {
                    let target = try? self.context.relatedObject(relationship.name, of: object)
                    fields.append("\(relationship.name) = \(target.map { $0.objectID } ?? "nil")")
                }
                return call.push("\(object.objectID) {\(fields.joined(separator: ", "))}")
            }),
        ]
    }
}

/// A value as Lua source would write it.
func literal(_ value: Value) -> String {
    switch value {
    case .text(let s): return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\t", with: "\\t") + "\""
    case .date(let d): return "date(\"\(Value.iso8601(d))\")"
    default: return value.displayString
    }
}

extension QuarryRuntime {
    /// `o.owner = p`, `o.owner = nil`, `o.tags = { t1, t2 }`.
    func assignRelationship(_ object: ManagedObject, _ key: String, valueAt index: Int32, _ call: LuaCall) throws {
        guard let relationship = context.entitiesRelationship(key, of: object) else { return }
        if relationship.isToMany {
            var targets: [ManagedObject] = []
            if !call.isNoneOrNil(index) {
                guard call.type(index) == LUA_TTABLE else {
                    throw LuaError("\(object.entity.name).\(key) takes a table of \(relationship.destination) objects, got \(call.typeName(index))")
                }
                targets = try LuaTable.array(call.state, index) { i in
                    guard let target = swiftObject(call.state, -1, kind: .object, as: ManagedObject.self) else {
                        throw LuaError("\(object.entity.name).\(key)[\(i)] must be a \(relationship.destination) object, got \(call.typeName(-1))")
                    }
                    return target
                }
            }
            try context.setRelatedObjects(targets, key, of: object)
        } else {
            var target: ManagedObject?
            if !call.isNoneOrNil(index) {
                guard let t = swiftObject(call.state, index, kind: .object, as: ManagedObject.self) else {
                    throw LuaError("\(object.entity.name).\(key) expects a \(relationship.destination) object or nil, got \(call.typeName(index))")
                }
                target = t
            }
            try context.setRelatedObject(target, key, of: object)
        }
    }
}
