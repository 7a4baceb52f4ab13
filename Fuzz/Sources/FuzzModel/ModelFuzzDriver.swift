// One input of the model-file fuzz target, shared by the libFuzzer target (Fuzz/) and the
// corpus replay test (Tests/QuarryStoreTests, through a symbolic link).
import Foundation
import QuarryModel
import QuarryStore
import QuarryModelFiles
import QuarryStores

/// Reads the input as a model file (written to a file with no extension, so that
/// `CoreDataModel.load` sniffs it: a binary or XML property list is a keyed archive, a
/// file starting with `<` is Xcode's model XML, SQLite is a store with `Z_MODELCACHE`) and
/// as the bytes of a `Z_MODELCACHE` blob (DEFLATE of a keyed archive). Errors are fine if
/// they are `ModelFileError`s (one line: what and where); crashes, hangs and unbounded
/// memory are findings. A model that decodes must also define in an empty in-memory store,
/// or be refused there with an error. Returns what went wrong, or nil.
enum ModelFuzzDriver {
    static let path: String = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-fuzz-model-\(getpid())")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }()

    static func run(_ bytes: [UInt8]) -> String? {
        let file = path + "/input"
        guard FileManager.default.createFile(atPath: file, contents: Data(bytes)) else { return "cannot write \(file)" }
        defer { try? FileManager.default.removeItem(atPath: file) }
        if let finding = checked("as a file", { try CoreDataModel.load(contentsOf: file) }) { return finding }
        return checked("as a model cache", { try CoreDataModel.decodeModelCache(Data(bytes), path: "blob") })
    }

    private static func checked(_ how: String, _ decode: () throws -> CoreDataModel) -> String? {
        let model: CoreDataModel
        do {
            model = try decode()
        } catch let error as ModelFileError {
            if error.message.isEmpty { return "\(how): an error with no message" }
            return nil
        } catch {
            return "\(how): threw \(type(of: error)), not a ModelFileError: \(error)"
        }
        do {
            let context = try OpenFileRequest.open(path: nil)
            defer { context.close() }
            _ = try context.define(model: model, from: "input")
        } catch {
            // Refused by the store: fine, as long as it is an error and not a crash.
        }
        return nil
    }
}
