import QuarryLua
import Testing

/// `id` on an entity that has no such key (a table without an `id` column, whose object
/// IDs a table shows as `country/42`): the predicate and `o.id` name the calls that use
/// an object ID, where they said only "unknown key path 'id'". A key that is close to an
/// existing one still gets "did you mean".
@Suite struct ObjectIDKeyTests {
    @Test func idOnAnEntityWithoutItNamesGetAndObjectID() throws {
        let h = try Harness()
        h.run(#"entity "country" { Name = "string" } country:new{ Name = "Aruba" } save()"#)
        let predicate = h.error(#"fetch("country", "id == 1")"#)
        #expect(
            predicate.contains("unknown key path 'id' on entity country; the object ID a table shows (country/42) is no key: country:get(42)"),
            "\(predicate)")
        let key = h.error(#"return country:first().id"#)
        #expect(key.contains("unknown key 'id' on entity country; the object ID") && key.contains("o:objectID() gives it"), "\(key)")
        #expect(h.string("country:get(1).Name") == "Aruba")
        h.run(#"entity "city" { Name = "string", ID = "int64" }"#)
        #expect(h.error(#"fetch("city", "id == 1")"#).contains("did you mean 'ID'"))
    }
}
