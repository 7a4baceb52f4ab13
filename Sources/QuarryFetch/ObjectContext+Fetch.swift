import GRDB
import QuarryPredicates
import QuarryStore

extension ObjectContext {
    /// Runs a request now.
    public func fetch(_ request: FetchRequest) throws -> FetchResults {
        try FetchResults(request, context: self)
    }

    /// The number of objects a request matches, counted by SQLite.
    public func count(_ request: FetchRequest) throws -> Int {
        try FetchResults(request, context: self).count()
    }

}
