#include "quarry_sqlite.h"

int quarry_sqlite_checkpoint_on_close(sqlite3 *db, int allowed) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, allowed ? 0 : 1, (int *)0);
}
