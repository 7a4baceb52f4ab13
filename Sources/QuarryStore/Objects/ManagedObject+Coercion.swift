import QuarryEngine
import QuarryModel

/// How a value given to an object becomes what its attribute holds, and the refusals of
/// what it cannot hold.
extension ManagedObject {
    /// `value` as attribute `key` of `entity` holds it, or the refusal of it. A string
    /// column of NUMERIC affinity (`YEAR`, `ENUM` in a SQLite file, `EntityStorage.untyped`
    /// and `takesText`) holds what SQLite stores: a number as given, a text that spells
    /// one as that number; so the object matches in memory as its row matches in SQL.
    static func coerced(
        _ value: Value, to attribute: AttributeDescription, _ key: String, of entity: EntityDescription,
        storage: @autoclosure () -> EntityStorage?
    ) throws -> Value {
        // The storage is looked up for a string attribute only: every value of a save passes here.
        if attribute.type == .string, let storage = storage(), storage.untyped.contains(key) {
            if storage.takesText.contains(key) {
                switch value {
                case .integer, .real: return value
                case .text(let text): return NumericAffinity.numeric(text)
                default: break
                }
            } else if case .integer = value {
                // A column declared with no type keeps what it is given, as SQLite keeps it
                // (`qty` holding 5): its integers and reals read back as numbers, so they
                // are written as numbers, where a number was refused and only its text taken.
                return value
            } else if case .real = value {
                return value
            }
        }
        let coerced: Value
        switch attribute.coerce(value) {
        case .success(let v): coerced = v
        case .failure(let f):
            throw StoreError.typeMismatch(entity: entity.name, key: key, expected: f.expected, given: describe(f.given) + f.accepted)
        }
        if coerced.isNull, !attribute.isOptional {
            throw StoreError.typeMismatch(entity: entity.name, key: key, expected: "\(attribute.type.rawValue) (not optional)", given: "nil")
        }
        return coerced
    }

    /// The refusal of a change to a saved object's key column `key`.
    static func keyKept(_ object: ManagedObject, _ key: String) -> StoreError {
        .database(
            message: "\(object.entity.name).\(key) is the key of \(object.objectID), which a saved object keeps (insert a new object for another key)"
        )
    }
}

/// A given value in a message: its kind, and the value itself when short.
func describe(_ value: Value) -> String {
    switch value {
    case .text(let s) where s.utf8.contains(0): return "string with a NUL byte (use a binary attribute for bytes)"
    case .text(let s): return s.count <= 40 ? "string (\"\(s)\")" : "string"
    case .integer, .real, .bool: return "\(value.kindName) (\(value.displayString))"
    default: return value.kindName
    }
}
