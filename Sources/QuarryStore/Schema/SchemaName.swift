/// What makes a name unusable for an entity, attribute or relationship, whatever it came
/// from (Lua, a CSV header, a model file). SQLite ends an identifier at a NUL byte, so
/// such a name would reach SQLite as another, shorter one ("unrecognized token").
public enum SchemaName {
    /// Why `name` cannot name a table or column, or nil when it can.
    public static func problem(_ name: String) -> String? {
        if name.isEmpty { return "a name cannot be empty" }
        if name.utf8.contains(0) { return "'\(name)' holds a NUL byte, which no SQLite name may" }
        return nil
    }
}
