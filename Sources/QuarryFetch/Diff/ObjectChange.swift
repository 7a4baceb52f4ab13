import QuarryModel

/// One difference between the objects of two stores, as `diff` lists them: an object only
/// in the new store (`inserted`), only in the old one (`deleted`), or in both with one
/// property changed (`changed`: one per attribute, to-one whose target changed, to-many
/// member added or removed). `key` is the object's identity (its key values).
public struct ObjectChange: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case inserted, deleted, changed

        /// The mark its row prints with, as `watch` marks rows.
        public var mark: String {
            switch self {
            case .inserted: return "+"
            case .deleted: return "-"
            case .changed: return "~"
            }
        }
    }

    public var kind: Kind
    public var entity: String
    public var key: [Value]
    /// The attribute or relationship changed; nil for an inserted or deleted object.
    public var property: String?
    /// Old and new values: an attribute's as the stores hold them; a to-one's target as
    /// `Entity/key`; a to-many's member added (new) or removed (old) as `Entity/key`.
    public var old: Value
    public var new: Value
    /// An inserted or deleted object's values, the attributes and to-ones a changed row
    /// would name (nil ones left out), as `diff` shows them beside its key: what was added
    /// or lost, not only which. Empty for a change, and where the row was not read.
    public var values: [Field] = []

    /// One of an object's values: an attribute's as stored, a to-one's as `Entity/key`.
    public struct Field: Equatable, Sendable {
        public var name: String
        public var value: Value
        /// A to-one's target (`Entity/key`), not text the object holds.
        public var isReference = false
    }

    public init(_ kind: Kind, entity: String, key: [Value], property: String? = nil, old: Value = .null, new: Value = .null) {
        self.kind = kind
        self.entity = entity
        self.key = key
        self.property = property
        self.old = old
        self.new = new
    }

    /// The same change whatever values it carries to show: which object, which property,
    /// from what to what. (An inserted object is the same insertion read in chunks or by SQL.)
    public static func == (a: ObjectChange, b: ObjectChange) -> Bool {
        a.kind == b.kind && a.entity == b.entity && a.key == b.key && a.property == b.property && a.old == b.old && a.new == b.new
    }

    /// The key as one value: itself when it has one column, else its values joined.
    public var keyValue: Value {
        key.count == 1 ? key[0] : .text(key.map(DiffValues.text).joined(separator: ", "))
    }
}
