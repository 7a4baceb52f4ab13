/// Core Data's attribute types, under both of their names: Xcode's XML (`attributeType=
/// "Integer 64"`) and the compiled model's `NSAttributeType` number (300). Also how each maps
/// to a Quarry `AttributeType` (a function, so that the two type systems stay separate).
public enum CoreDataAttributeType: String, CaseIterable, Equatable, Sendable {
    case undefined = "Undefined"
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case objectID = "ObjectID"
    case composite = "Composite"

    /// `NSAttributeType`'s raw value.
    public var code: Int {
        switch self {
        case .undefined: return 0
        case .integer16: return 100
        case .integer32: return 200
        case .integer64: return 300
        case .decimal: return 400
        case .double: return 500
        case .float: return 600
        case .string: return 700
        case .boolean: return 800
        case .date: return 900
        case .binary: return 1000
        case .uuid: return 1100
        case .uri: return 1200
        case .transformable: return 1800
        case .objectID: return 2000
        case .composite: return 2100
        }
    }

    /// From `NSAttributeType`'s raw value.
    public init?(code: Int) {
        guard let type = CoreDataAttributeType.allCases.first(where: { $0.code == code }) else { return nil }
        self = type
    }

    /// From Xcode's `attributeType` (`"Binary"` is also written `"Binary Data"` in old models).
    public init?(xmlName: String) {
        if xmlName == "Binary Data" {
            self = .binary
            return
        }
        self.init(rawValue: xmlName)
    }

    /// The Quarry type an attribute of this type is read as; nil where Quarry has no
    /// column type for it (undefined, object IDs, composites).
    public var quarryType: AttributeType? {
        switch self {
        case .integer16: return .int16
        case .integer32: return .int32
        case .integer64: return .int64
        case .decimal: return .decimal
        case .double, .float: return .double
        case .string, .uri: return .string
        case .boolean: return .bool
        case .date: return .date
        case .binary, .transformable: return .binary
        case .uuid: return .uuid
        case .undefined, .objectID, .composite: return nil
        }
    }
}
