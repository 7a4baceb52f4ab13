import QuarryPredicates
import QuarryShell
import QuarryStore
import QuarrySwiftInput
import Testing

@testable import QuarryLua

/// The prelude a runtime loads is the bytecode scripts/prelude-bytecode made from the
/// prelude's text (a start then skips compiling it); when the text changes, the bytecode
/// is stale and the text is compiled again, which is correct but slow: this test says so.
@Suite struct PreludeBytecodeTests {
    @Test func bytecodeIsTheCurrentPreludes() {
        #expect(
            PreludeBytecode.current != nil,
            "Sources/CQuarryShim/prelude_bytecode.c is not the prelude's: run scripts/prelude-bytecode")
    }

    /// The loaded prelude keeps its debug information: its functions name the prelude
    /// and their lines, as when the text was compiled at start (messages and tracebacks
    /// read them).
    @Test func preludeFunctionsKeepTheirLines() throws {
        let runtime = try QuarryRuntime(context: try StoreOpener.open(nil), swiftReader: InProcessSwiftReader())
        #expect(
            runtime.run(
                """
                local info = debug.getinfo(quarry.repr, 'S')
                assert(info.short_src == '(quarry prelude)', info.short_src)
                assert(info.linedefined == 55, info.linedefined)
                """) == nil)
    }
}
