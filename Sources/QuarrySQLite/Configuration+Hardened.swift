import CQuarrySQLite
import GRDB
import GRDBSQLite
import QuarryEngine
import QuarryModel
import QuarryModelFiles
import QuarryStore

extension Configuration {
    /// The configuration every connection Quarry opens starts from: SQL text can reach no
    /// native code through it. Debian's SQLite is built with SQLITE_ENABLE_FTS3_TOKENIZER,
    /// which turns on the two-argument `fts3_tokenizer()` for every connection: given a
    /// blob, it installs that blob as a pointer to a tokenizer module, which the next
    /// query on an FTS3 table calls (a crash at best). It is turned off here, and so is
    /// `load_extension()` (off by default; said again so no build's default decides).
    /// `sql()` also refuses both by name (`SQLFunctions`), and the one-argument form too,
    /// which answers a real library address.
    public static func hardened() -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            let code = quarry_sqlite_disable_native_hooks(db.sqliteConnection)
            guard code == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot turn off fts3_tokenizer and load_extension")
            }
        }
        return configuration
    }
}
