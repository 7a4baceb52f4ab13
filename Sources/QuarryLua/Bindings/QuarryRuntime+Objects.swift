import CLua
import CQuarryShim
import QuarryFormat
import QuarryModel
import QuarryStore

extension QuarryRuntime {
}

/// Text inside a Lua literal's quotes: its quotes and backslashes escaped, and control
/// characters.
private func escapedInLiteral(_ s: String) -> String {
    ErrorRendering.escaped(s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))
}

/// A value as Lua source would write it.
func literal(_ value: Value) -> String {
    switch value {
    // Control characters as Lua escapes them (`\n`, `\27`): a value from a file sends
    // nothing to the terminal that prints it.
    case .text(let s): return "\"" + escapedInLiteral(s) + "\""
    // Bytes that are not UTF-8 as Lua writes a byte (`\xFF`): the same string read back.
    case .textBytes(let bytes): return "\"" + Value.escapingInvalidUTF8(bytes, escapingText: escapedInLiteral) + "\""
    case .date(let d): return "date(\"\(Value.iso8601(d))\")"
    case .decimal(let s): return "decimal(\"\(s)\")"
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
                        throw OptionError(
                            "\(object.entity.name).\(key)[\(i)]", mustBe: "a \(relationship.destination) object", got: call.typeName(-1))
                    }
                    return target
                }
                for target in targets { try refuseForeign(target) }
            }
            try context.setRelatedObjects(targets, key, of: object)
        } else {
            var target: ManagedObject?
            if !call.isNoneOrNil(index) {
                guard let t = swiftObject(call.state, index, kind: .object, as: ManagedObject.self) else {
                    throw LuaError("\(object.entity.name).\(key) expects a \(relationship.destination) object or nil, got \(call.typeName(index))")
                }
                try refuseForeign(t)
                target = t
            }
            try context.setRelatedObject(target, key, of: object)
        }
    }
}
