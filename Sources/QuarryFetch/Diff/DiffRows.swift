import QuarryModel
import QuarryModelFiles

/// A diff as rows of a table, the way the Lua layer and the shell show and export it:
/// each row marked `+` (only in the new store or model), `-` (only in the old) or `~`
/// (in both, changed), as `watch` marks rows.
public struct DiffRows: Equatable, Sendable {
    public var columns: [String]
    public var rows: [[Value]]

    /// A model difference: one row per change, with whether lightweight migration infers it.
    public init(_ model: ModelDifference) {
        columns = ["change", "entity", "property", "what", "old", "new", "lightweight", "note"]
        rows = model.changes.map { c in
            [
                .text(c.kind.mark), .text(c.entity), Self.text(c.property), Self.text(c.what ?? c.kind.rawValue), Self.text(c.old),
                Self.text(c.new), .bool(c.inferable), Self.text(c.note)
            ]
        }
    }

    /// A store diff: the models' differences first (key: what changed), then each object change,
    /// its key the object's identity; an inserted object's values under `new` and a deleted
    /// one's under `old`, as one text (`title = "Hello", n = 3, owner = Person/2`), each
    /// value as `shown` writes it (the REPL's rendering), so the row says what was added or
    /// lost and a wide one is cut as any long text cell is.
    public init(_ diff: StoreDiff, shown: (Value) -> String = DiffRows.plainText) {
        columns = ["change", "entity", "key", "property", "old", "new"]
        // A model row has no object's key: the key says what of the model changed
        // (`removed`, `type`, `optional`), and old and new its two sides.
        rows = diff.model.changes.map { c in
            [.text(c.kind.mark), .text(c.entity), .text(c.what ?? c.kind.rawValue), Self.text(c.property), Self.text(c.old), Self.text(c.new)]
        }
        rows += diff.changes.map { c in
            let values: Value = c.values.isEmpty ? .null : .text(Self.described(c.values, shown: shown))
            let (old, new) = c.kind == .inserted ? (c.old, values) : c.kind == .deleted ? (values, c.new) : (c.old, c.new)
            return [.text(c.kind.mark), .text(c.entity), c.keyValue, Self.text(c.property), old, new]
        }
    }

    /// `title = "Hello", n = 3`: text quoted (so "nil" and nil, "3" and 3 read apart), a
    /// to-one's target as `Entity/key`, the rest as `shown` writes them.
    static func described(_ fields: [ObjectChange.Field], shown: (Value) -> String) -> String {
        fields.map { field -> String in
            let text: String
            switch field.value {
            case .text(let s) where !field.isReference:
                text = "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            default: text = shown(field.value)
            }
            return field.name + " = " + text
        }.joined(separator: ", ")
    }

    /// A value as one line of text, where no REPL says how it shows numbers and dates.
    public static func plainText(_ value: Value) -> String { DiffValues.text(value) }

    private static func text(_ s: String?) -> Value { s.map(Value.text) ?? .null }
}
