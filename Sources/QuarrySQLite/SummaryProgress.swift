import CQuarrySQLite
import GRDB
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

/// Where the connection's `quarry_summary` aggregate (summary_aggregate.c) reports rows seen,
/// every 65,536 rows of a summary's statement: `report` is set for one statement by
/// whoever shows progress, and nil otherwise. The aggregate holds an unretained pointer
/// to this object; the context keeps it for as long as the connection lives.
public final class SummaryProgress {
    public var report: ((Int) -> Void)?

    public init() {}

    /// Adds `quarry_summary` to `db`, reporting to this object.
    func install(on db: Database) {
        _ = quarry_sqlite_add_summary_functions(db.sqliteConnection, Unmanaged.passUnretained(self).toOpaque()) { info, rows in
            guard let info else { return }
            Unmanaged<SummaryProgress>.fromOpaque(info).takeUnretainedValue().report?(Int(rows))
        }
    }
}
