#include "quarry_sqlite.h"

int quarry_sqlite_checkpoint_on_close(sqlite3 *db, int allowed) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, allowed ? 0 : 1, (int *)0);
}

sqlite3_int64 quarry_sqlite_limit_heap(sqlite3_int64 bytes) {
    if (bytes >= 0) {
        sqlite3_hard_heap_limit64(bytes);
        /* Past three quarters, SQLite gives back cache pages before an allocation fails. */
        sqlite3_soft_heap_limit64(bytes - bytes / 4);
    }
    return sqlite3_hard_heap_limit64(-1);
}

int quarry_sqlite_disable_native_hooks(sqlite3 *db) {
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, (int *)0);
    if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
    /* Defensive: no write can corrupt the file through SQL, such as a row set in a
       full-text index's own tables (which show as entities of a foreign file). */
    if (rc == SQLITE_OK) rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
    return rc;
}
