import Foundation
import QuarrySQLite
import QuarryStore
import QuarryStores
import Testing

/// The registry is the one place that tells a server's address from a file's path.
@Suite struct StoreRegistryTests {
    @Test func aServersAddressIsNotAFile() {
        #expect(!StoreRegistry.namesFile("postgres://ann@db/shop"))
        #expect(!StoreRegistry.namesFile("POSTGRESQL://db/shop"))
        // One slash is still a URL (refused in one line, not made a file of that name).
        #expect(!StoreRegistry.namesFile("postgres:/db/shop"))
        #expect(StoreRegistry.namesFile("shop.db"))
        #expect(StoreRegistry.namesFile(":memory:"))
        #expect(StoreRegistry.namesFile("postgres.db"))
    }

    @Test func historyLinesLoseEveryServersSecrets() {
        #expect(StoreRegistry.withoutSecrets(in: ".open postgres://ann:s3cret@db/shop") == ".open postgres://ann@db/shop")
        #expect(StoreRegistry.withoutSecrets(in: "print(count('t'))") == "print(count('t'))")
    }

    @Test func aFileOrMemoryOpensAsSQLiteWithNoAppModel() throws {
        let memory = try StoreRegistry.open(nil)
        #expect(memory.engineDescription == "SQLite")
        #expect(memory.capabilities.isEmpty)
        #expect(memory.appModel == nil)
        #expect(memory.tablesRead(by: "SELECT 1").isEmpty)
    }

    /// A server that cannot be reached is one error naming the address, without its password.
    @Test func anUnreachableServerIsOneErrorWithoutItsPassword() {
        do {
            _ = try StoreRegistry.open("postgres://ann:s3cret@127.0.0.1:1/shop?connect_timeout=2")
            Issue.record("opened a server on port 1")
        } catch {
            let text = "\(error)"
            #expect(!text.contains("s3cret"), "\(text)")
            #expect(text.contains("postgres://ann@127.0.0.1:1/shop"), "\(text)")
        }
    }
}
