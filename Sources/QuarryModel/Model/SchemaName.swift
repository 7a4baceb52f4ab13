/// What makes a name unusable for an entity, attribute or relationship, whatever it came
/// from (Lua, a CSV header, a JSON key, a model file). SQLite reads a quoted identifier
/// only up to a NUL byte, so such a name would reach it as another, shorter one
/// ("unrecognized token"); an empty name cannot be written back as a CSV header.
public enum SchemaName {
    /// Why `name` cannot name a table or column ("is empty", "holds a NUL byte"), or nil.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "is empty" }
        if name.utf8.contains(0) { return "holds a NUL byte" }
        return nil
    }

    /// `name` as a message shows it: quoted, with NUL bytes as `\0` (a terminal would drop
    /// them, and the rest of the line with some tools).
    public static func shown(_ name: String) -> String {
        "'" + name.replacingOccurrences(of: "\0", with: "\\0") + "'"
    }
}
