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

    /// A store diff: the models' differences first (key `model`), then each object change,
    /// its key the object's identity.
    public init(_ diff: StoreDiff) {
        columns = ["change", "entity", "key", "property", "old", "new"]
        rows = diff.model.changes.map { c in
            let what = c.what ?? c.kind.rawValue
            return [
                .text(c.kind.mark), .text(c.entity), .text("model"), Self.text(c.property),
                c.old.map { .text("\(what): \($0)") } ?? .null, c.new.map { .text("\(what): \($0)") } ?? .null
            ]
        }
        rows += diff.changes.map { c in
            [.text(c.kind.mark), .text(c.entity), c.keyValue, Self.text(c.property), c.old, c.new]
        }
    }

    private static func text(_ s: String?) -> Value { s.map(Value.text) ?? .null }
}
