import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Opening, as each kind of store does it (Core Data's store types, registered with the
/// coordinator): whether a file is of this kind, and the store with its model and mapping
/// read from the file. Opening a file tries the kinds in the registry's order
/// (`OpenFileRequest.storeKinds`) and adopts the first that recognises the file; nothing
/// here writes to a file Quarry did not create.
package protocol OpenableStore: PersistentStore {
    /// Whether the file behind `db` (at `path`; nil or ":memory:" in memory) is this kind's.
    /// Asked in one read with the other kinds, each earlier kind having said no.
    static func recognizes(_ db: Database, path: String?) throws -> Bool
    /// The store of this kind over `connection`, its model and mapping read. `modelPath`:
    /// the model file a Core Data store that carries none is read with (`--model`).
    static func open(_ connection: StoreConnection, modelPath: String?) throws -> Self
}
