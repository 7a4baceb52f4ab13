import QuarryModel
import QuarryStore

/// The way forward a predicate names for a key its entity lacks, for the layers that read
/// keys another way (Lua's `o.dashboard`, `o.streams`), so both refusals say the same:
/// the `relate()` that makes an undeclared relationship, ready to paste, or the path
/// through a join table that is an entity of its own.
public enum KeyWayForward {
    /// `relate("dashboard_version", "dashboard_id", "dashboard", "id")` for `dashboard`
    /// on `dashboard_version`; nil when no column names such rows.
    public static func relate(for name: String, on entity: EntityDescription, in context: ObjectContext) -> String? {
        Binder(context: context).relateSuggestion(for: name, on: entity)
    }

    /// For `streams` on `playlists`: the join entity (`playlist_stream_join`), the to-many
    /// that reaches it (`playlist_stream_joins`) and its to-one to what was named (`stream`).
    public static func join(for name: String, on entity: EntityDescription, in context: ObjectContext) -> (
        join: String, link: String, end: String, destination: String
    )? {
        guard entity.attribute(named: name) == nil, let (join, link, end) = Binder(context: context).joinPath(for: name, on: entity) else {
            return nil
        }
        return (join.name, link.name, end.name, end.destination)
    }

    /// For `id` or `objectID` on an entity with no such key: the object ID a table shows
    /// (`country/42`) is no key; the calls that use it. Nil for any other name.
    public static func objectID(for name: String, on entity: EntityDescription) -> String? {
        guard ["id", "objectid"].contains(name.lowercased()), entity.attribute(named: name) == nil else { return nil }
        return "the object ID a table shows (\(entity.name)/42) is no key: \(entity.name):get(42) fetches that object, o:objectID() gives it"
    }
}
