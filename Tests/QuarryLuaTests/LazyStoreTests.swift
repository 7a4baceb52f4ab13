import QuarryLua
import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import Testing

/// A runtime made with `init(memoryLimit:opening:)` (a run that names no database) opens
/// its store only when something first needs it, once, and then behaves as one given open.
@Suite struct LazyStoreTests {
    /// Counts the opens; the store it hands out is made up front, so opening cannot fail.
    final class Opener {
        let store: ObjectContext
        var opened = 0
        init() throws { store = try StoreOpener.open(nil) }
        func open() -> ObjectContext {
            opened += 1
            return store
        }
    }

    @Test func plainLuaNeverOpensTheStore() throws {
        let opener = try Opener()
        let runtime = try QuarryRuntime(swiftReader: InProcessSwiftReader()) { opener.open() }
        #expect(runtime.run("local x = 1; assert(math.max(x, 2) == 2); assert(type(fetch) == 'function')") == nil)
        #expect(opener.opened == 0)
        #expect(runtime.openedContext == nil)
    }

    @Test func theFirstUseOpensItOnceAndTheStoreWorks() throws {
        let opener = try Opener()
        let runtime = try QuarryRuntime(swiftReader: InProcessSwiftReader()) { opener.open() }
        let failure = runtime.run(
            """
            entity "Item" { name = "string", n = "int64" }
            Item:new{ name = "a", n = 1 }; Item:new{ name = "b", n = 2 }
            save()
            assert(count("Item", "n > %@", 1) == 1)
            assert(Item ~= nil, "the new entity is a global")
            """)
        #expect(failure == nil, "\(failure?.message ?? "")")
        #expect(opener.opened == 1)
        #expect(runtime.openedContext != nil)
        #expect(runtime.context === runtime.openedContext)
        #expect(try runtime.context.entity(named: "Item").name == "Item")
        #expect(opener.opened == 1)
    }

    @Test func usingAnotherStoreFirstNeverOpensTheDeferredOne() throws {
        let opener = try Opener()
        let runtime = try QuarryRuntime(swiftReader: InProcessSwiftReader()) { opener.open() }
        let other = try StoreOpener.open(nil)
        runtime.use(other)
        #expect(runtime.run("entity 'T' { x = 'int64' }; T:new{ x = 5 }; save(); assert(count('T') == 1)") == nil)
        #expect(opener.opened == 0)
        #expect(runtime.context === other)
    }
}
