import Foundation
import QuarryStore

extension FetchResults {
    /// Writes every object to `path` as CSV or, for a `.json` path, as an array of
    /// objects (see `ExportWriter`); returns the count. Rows go out as they are read.
    @discardableResult
    public func export(to path: String) throws -> Int {
        let names = entity.attributeNames
        var writer = try ExportWriter(path: path, columns: names)
        while let object = try object(at: writer.count) {
            // A value that cannot be read stops the export (the file stays as it was).
            try writer.write(try names.map { try object.value(forKey: $0) })
        }
        return try writer.finish()
    }
}
