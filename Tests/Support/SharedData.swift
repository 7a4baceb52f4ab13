import Foundation

/// The project's test data, `../shared/data` beside the package (found from this file,
/// wherever the checkout is). Tests ask for a file here and fail, saying what is missing,
/// when it is not there: they never skip.
public enum SharedData {
    /// `<package>/../shared/data`.
    public static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/data").standardized

    /// The path of `relative` (e.g. "nycflights13/flights.csv"); throws when it is missing.
    public static func path(_ relative: String) throws -> String {
        let path = folder.appendingPathComponent(relative).path
        guard FileManager.default.fileExists(atPath: path) else { throw Missing(path: path) }
        return path
    }

    public struct Missing: Error, CustomStringConvertible {
        public let path: String
        public var description: String {
            "the shared test data is missing: \(path) (the tests expect ../shared beside the package)"
        }
    }
}
