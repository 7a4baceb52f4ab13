#ifndef QUARRY_PQ_H
#define QUARRY_PQ_H

#include <stddef.h>
// libpq's types only: the library itself is loaded at the first PostgreSQL connection
// (quarry_pq_load), since linking it would cost every quarry process 4.7 ms at start
// (libpq brings 24 libraries: TLS, Kerberos, LDAP), most of a start that takes 1 ms.
#include <postgresql/libpq-fe.h>

/// The libpq functions Quarry calls, resolved from libpq.so.5.
typedef struct QuarryPQ {
    PGconn *(*connectdb)(const char *conninfo);
    ConnStatusType (*status)(const PGconn *conn);
    char *(*errorMessage)(const PGconn *conn);
    void (*finish)(PGconn *conn);
    ExecStatusType (*resultStatus)(const PGresult *res);
    char *(*resultErrorField)(const PGresult *res, int fieldcode);
    char *(*resultErrorMessage)(const PGresult *res);
    void (*clear)(PGresult *res);
    int (*ntuples)(const PGresult *res);
    int (*nfields)(const PGresult *res);
    char *(*fname)(const PGresult *res, int field_num);
    Oid (*ftype)(const PGresult *res, int field_num);
    int (*getisnull)(const PGresult *res, int tup_num, int field_num);
    char *(*getvalue)(const PGresult *res, int tup_num, int field_num);
    int (*getlength)(const PGresult *res, int tup_num, int field_num);
    char *(*cmdTuples)(PGresult *res);
    int (*serverVersion)(const PGconn *conn);
    int (*socket)(const PGconn *conn);
    int (*consumeInput)(PGconn *conn);
    PGnotify *(*notifies)(PGconn *conn);
    void (*freemem)(void *ptr);
    PGresult *(*prepare)(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes);
    PGresult *(*describePrepared)(PGconn *conn, const char *stmt);
    int (*nparams)(const PGresult *res);
    int (*sendQueryParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                           const char *const *paramValues, const int *paramLengths,
                           const int *paramFormats, int resultFormat);
    PGresult *(*getResult)(PGconn *conn);
    int (*isBusy)(PGconn *conn);
    PGcancel *(*getCancel)(PGconn *conn);
    int (*cancel)(PGcancel *cancel, char *errbuf, int errbufsize);
    void (*freeCancel)(PGcancel *cancel);
    int (*putCopyData)(PGconn *conn, const char *buffer, int nbytes);
    int (*putCopyEnd)(PGconn *conn, const char *errormsg);
    int (*getCopyData)(PGconn *conn, char **buffer, int async);
    int (*setSingleRowMode)(PGconn *conn);
    int (*backendPID)(const PGconn *conn);
    PQnoticeProcessor (*setNoticeProcessor)(PGconn *conn, PQnoticeProcessor proc, void *arg);
    void (*reset)(PGconn *conn);
    int (*flush)(PGconn *conn);
    // Pipeline mode, libpq 14 and later: NULL with an older libpq, which then sends one
    // statement at a time.
    int (*enterPipelineMode)(PGconn *conn);
    int (*exitPipelineMode)(PGconn *conn);
    int (*pipelineSync)(PGconn *conn);
} QuarryPQ;

/// Loads libpq once; NULL when it cannot, with why in `error` (size bytes).
const QuarryPQ *quarry_pq_load(char *error, size_t size);

/// Keeps libpq from printing the server's notices and idle errors on stderr, where they
/// would land over the REPL's prompt: Quarry says what matters in its own messages.
void quarry_pq_quiet(const QuarryPQ *pq, PGconn *conn);

#endif
