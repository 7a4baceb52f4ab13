import Testing

/// `p:swift` through to-one key paths and for the new constructs, following SwiftData's
/// `#Predicate` (optional chaining through a to-one relationship, `.count` of a to-many
/// one); where `#Predicate` cannot say it, the comment gives the real reason.
@Suite struct SwiftExportPathTests {
    @Test(arguments: [
        // `name` is required: the macro takes `?.` only onto an optional property.
        ("owner.name == %@", "item.owner.flatMap { $0.name } == \"Ann\""),
        ("owner == nil", "item.owner == nil"),
        ("owner.name BEGINSWITH %@", "(item.owner.flatMap { $0.name })?.starts(with: \"Ann\") ?? false"),
        ("owner.age > 3", "(item.owner?.age).flatMap { $0 > 3 } ?? false"),
        ("3 < qty", "item.qty > 3"),
        ("qty * 2 + 1 > 5", "((item.qty * 2) + 1) > 5"),
        ("tags.@count == 2", "item.tags.count == 2"),
        ("tags[SIZE] > 0", "item.tags.count > 0"),
        ("'ell' IN title", "item.title.contains(\"ell\")")
    ])
    func writesAPredicateMacro(_ format: String, _ body: String) throws {
        let h = try Harness()
        h.run(Self.model)
        // 'Ann' only where there is a placeholder for it: an extra argument is refused.
        let code = h.string("predicate([[\(format)]]\(format.contains("%@") ? ", 'Ann'" : "")):swift('Item')") ?? ""
        #expect(code.contains("#Predicate<Item> { item in \(body) }"), "\(format): \(code)")
    }

    @Test(arguments: [
        ("qty ** 2 > 4", "** has no #Predicate operator"),
        ("qty / 2 > 1", "/ divides as Double"),
        ("tags.@sum.weight > 1", "@sum"),
        ("abs:(qty) > 1", "functions")
    ])
    func namesTheRealReason(_ format: String, _ reason: String) throws {
        let h = try Harness()
        h.run(Self.model)
        let code = h.string("predicate([[\(format)]]):swift('Item')") ?? ""
        #expect(code.contains("// #Predicate: not expressible (") && code.contains(reason), "\(format): \(code)")
    }

    static let model = #"""
        entity "Person" { name = "string", age = "int?" }
        entity "Tag" { weight = "int" }
        entity "Item" { title = "string", qty = "int", owner = { one = "Person", inverse = "items" },
                        tags = { many = "Tag", inverse = "item" } }
        """#
}
