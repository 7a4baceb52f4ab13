import Testing

/// A predicate given a stored object (`owner == %@` with an object) is exported as an app
/// writes it: NSPredicate takes the object as an argument (Quarry's `<Owner/1>` is not
/// Apple's syntax, and parses nowhere), and `#Predicate`, which cannot capture a model
/// object, is refused with the reason rather than written as `owner == 1`.
@Suite struct SwiftObjectArgumentTests {
    @Test func anObjectIsAnArgumentAndNoPredicateMacro() throws {
        let h = try Harness()
        h.run(
            #"""
            entity "Owner" { name = "string" }
            entity "Pet" { name = "string", owner = { one = "Owner", inverse = "pets" } }
            o = Owner:new{ name = "a" }; Pet:new{ name = "p", owner = o }; save()
            """#)
        let code = try #require(h.string(#"predicate("owner == %@ AND name == %@", o, "p"):swift("Pet")"#))
        #expect(code.contains(##"NSPredicate(format: #"owner == %@ AND name == "p""#, owner)"##), "\(code)")
        #expect(!code.contains("<Owner/"), "\(code)")
        #expect(code.contains("// #Predicate: not expressible (a comparison with a stored object"), "\(code)")
        let request = try #require(h.string(#"fetch("Pet", "owner == %@", o):swift("nsfetchrequest")"#))
        #expect(request.contains(##"request.predicate = NSPredicate(format: #"owner == %@"#, owner)"##), "\(request)")
        // nil is still a value #Predicate takes.
        #expect(h.string(#"predicate("owner == nil"):swift("Pet")"#)?.contains("#Predicate<Pet> { pet in pet.owner == nil }") == true)
    }
}
