import Foundation
import QuarryStore

extension QuarryRuntime {
    /// Runs `body`, which may keep a declaration (`relate()`, `format()`) in the sidecar
    /// beside a file Quarry did not create; when that made the sidecar, one note says so,
    /// so a file appearing beside the person's own is no surprise.
    func notingANewSidecar<T>(_ body: () throws -> T) rethrows -> T {
        guard let path = context.path else { return try body() }
        let sidecar = ForeignSidecar.path(for: path)
        let existed = FileManager.default.fileExists(atPath: sidecar)
        let result = try body()
        if !existed, FileManager.default.fileExists(atPath: sidecar) {
            let name = (sidecar as NSString).lastPathComponent
            writeNotice("note: kept in \(name) beside the file, read again at every open; the file itself is unchanged")
        }
        return result
    }
}
