import CLua
import CQuarryShim
import Foundation
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// The model out of Quarry: `Item:swift(style)` and `export(entities(), "Model.xcdatamodel")`.
/// Both start from `ObjectContext.coreDataModel`, so a Core Data store's own model and
/// Quarry's entities give the same kinds of output.
extension QuarryRuntime {
    /// `Item:swift()` (SwiftData) or `Item:swift("coredata")`.
    func swiftSource(of entity: String, style name: String?, _ call: LuaCall) throws -> String {
        var style = SwiftModelStyle.swiftData
        if let name {
            guard let chosen = SwiftModelStyle(rawValue: name.lowercased()) else {
                throw call.argumentError(
                    2, "style must be \(SwiftModelStyle.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")), got '\(name)'")
            }
            style = chosen
        }
        guard let source = SwiftModelSource(model: CoreDataModel(of: context)).source(for: entity, style: style) else {
            throw StoreError.unknownEntity(name: entity, suggestion: nil)
        }
        return source
    }

    /// Whether `export`'s arguments ask for a model folder: a table first and a path ending in `.xcdatamodel`.
    func isModelExport(_ call: LuaCall) -> Bool {
        guard call.type(1) == LUA_TTABLE, call.type(2) == LUA_TSTRING else { return false }
        return luaString(call.state, 2).lowercased().hasSuffix(".xcdatamodel")
    }

    /// `export(entities(), "Model.xcdatamodel")`: the entities in the table (handles or
    /// names) written as an Xcode model folder. Returns the number of entities written.
    func exportModel(_ call: LuaCall) throws -> Int32 {
        let path = try call.string(2)
        var names: [String] = []
        let count = lua_rawlen(call.state, 1)
        for i in 0..<count {
            lua_rawgeti(call.state, 1, lua_Integer(i + 1))
            defer { quarry_pop(call.state, 1) }
            if let handle = swiftObject(call.state, -1, kind: .entity, as: EntityHandle.self) {
                names.append(handle.name)
            } else if call.type(-1) == LUA_TSTRING {
                names.append(luaString(call.state, -1))
            } else {
                throw call.argumentError(1, "a table of entities expected, item \(i + 1) is \(call.typeName(-1))")
            }
        }
        for name in names { _ = try context.entity(named: name) }
        let model = CoreDataModel(of: context, entities: names)
        // A relationship to an entity left out of the table would make a model that does
        // not load: refused before anything is written, naming the path.
        try CoreDataModel.validate(model, path: path)
        try XCDataModelWriter.write(model, toFolder: path)
        return call.push(model.entities.count)
    }
}
