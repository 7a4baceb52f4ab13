import Foundation
import QuarryModel
import QuarryPredicates
import QuarryStore
import QuarryStores

/// Opens a store ready for predicates: the predicate layer's SQL functions (folding,
/// string operators, arithmetic) installed on its connection, so the SQL a predicate
/// compiles to runs there. A namespace rather than an extension of `ObjectContext`, so the
/// store's type stays its own module's.
public enum StoreOpener {
    /// `model`: the model file for a Core Data store that carries none (`--model`).
    /// The registry chooses the store by its location; a server's SQL needs none of these.
    /// A location no server claims that could only be a mistyped address, or that holds a
    /// password, is refused rather than made a new file (`refusalOfNewFile`).
    public static func open(_ path: String?, readOnly: Bool = false, model: String? = nil) throws -> ObjectContext {
        if let path, StoreRegistry.namesFile(path), let refusal = refusalOfNewFile(path) { throw refusal }
        return try StoreRegistry.open(path, readOnly: readOnly, functions: PredicateFunctions.all, model: model)
    }

    /// Why `location`, which no server claims, is not made a new file: it names no file
    /// there is, and it is written as a server's address (`scheme://…`, or `scheme:` with
    /// an '@' after it, as `user:password@host` has) or holds a password as Quarry reads one
    /// (`password=…`, `URLSecrets`). A file made so would keep the password in its name,
    /// and a mistyped address would open as a new, empty store. Nil when it may be a file.
    /// The message says the location without its password.
    static func refusalOfNewFile(_ location: String) -> StoreError? {
        guard location != ":memory:", !FileManager.default.fileExists(atPath: location) else { return nil }
        let shown = URLSecrets.withoutPasswords(in: location)
        if let colon = location.firstIndex(of: ":") {
            let scheme = location[..<colon]
            let rest = location[location.index(after: colon)...]
            let isScheme =
                scheme.first.map { $0.isASCII && $0.isLetter } ?? false
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            if isScheme, rest.hasPrefix("//") || rest.contains("@") {
                // Without the slashes no part of what follows the scheme is shown: any may
                // be a piece of a password (`postgress:user:SECRET@host`).
                let shown = rest.hasPrefix("//") ? shown : scheme + ":…"
                let hint = closestMatch(to: scheme.lowercased(), in: ["postgres", "postgresql"]).map { " (did you mean \($0)://?)" } ?? ""
                return .database(
                    message: "\(shown) names no file, and \(scheme): is no scheme Quarry opens\(hint); "
                        + "a PostgreSQL store is postgres://USER@HOST[:PORT]/DB or host=… dbname=…; no file was made")
            }
        }
        if shown != location {
            return .database(
                message: "\(shown) names no file and holds a password: a libpq connection string starts with a keyword, "
                    + "as host=… dbname=… does; no file was made")
        }
        return nil
    }
}
