import Foundation
import QuarryStore

extension FetchResults {
    /// Writes every object to `path` as CSV or, for a `.json` path, as an array of
    /// objects (see `TableWriter`); returns the count. Results that SQLite alone answers
    /// stream from one SELECT (no object is made); results holding unsaved changes are
    /// written object by object, as they are read.
    @discardableResult
    public func export(to path: String) throws -> Int {
        let names = entity.attributeNames
        var writer = try ExportWriter(path: path, columns: names)
        if try servesRows() {
            let query = sql()
            // Column 0 is the key; the attributes follow in the entity's order.
            _ = try context.streamRows(query.sql, arguments: query.arguments, attributes: entity.attributes, firstColumn: 1,
                                       writer: &writer.table, file: writer.file)
            return try writer.finish()
        }
        while let object = try object(at: writer.count) {
            // A value that cannot be read stops the export (the file stays as it was).
            try writer.write(try names.map { try object.value(forKey: $0) })
        }
        return try writer.finish()
    }
}
