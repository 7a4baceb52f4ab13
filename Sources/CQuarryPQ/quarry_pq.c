#include "quarry_pq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static QuarryPQ table;
static const QuarryPQ *loaded;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, name)                                                        \
    if (!(*(void **)&table.field = dlsym(library, name))) {                         \
        snprintf(failure, sizeof failure, "libpq.so.5 has no %s", name);            \
        return;                                                                     \
    }

static void load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "cannot load libpq (install libpq5): %s", dlerror());
        return;
    }
    RESOLVE(connectdb, "PQconnectdb")
    RESOLVE(status, "PQstatus")
    RESOLVE(errorMessage, "PQerrorMessage")
    RESOLVE(finish, "PQfinish")
    RESOLVE(resultStatus, "PQresultStatus")
    RESOLVE(resultErrorField, "PQresultErrorField")
    RESOLVE(resultErrorMessage, "PQresultErrorMessage")
    RESOLVE(clear, "PQclear")
    RESOLVE(ntuples, "PQntuples")
    RESOLVE(nfields, "PQnfields")
    RESOLVE(fname, "PQfname")
    RESOLVE(ftype, "PQftype")
    RESOLVE(getisnull, "PQgetisnull")
    RESOLVE(getvalue, "PQgetvalue")
    RESOLVE(getlength, "PQgetlength")
    RESOLVE(cmdTuples, "PQcmdTuples")
    RESOLVE(serverVersion, "PQserverVersion")
    RESOLVE(socket, "PQsocket")
    RESOLVE(consumeInput, "PQconsumeInput")
    RESOLVE(notifies, "PQnotifies")
    RESOLVE(freemem, "PQfreemem")
    RESOLVE(prepare, "PQprepare")
    RESOLVE(describePrepared, "PQdescribePrepared")
    RESOLVE(nparams, "PQnparams")
    RESOLVE(sendQueryParams, "PQsendQueryParams")
    RESOLVE(getResult, "PQgetResult")
    RESOLVE(isBusy, "PQisBusy")
    RESOLVE(getCancel, "PQgetCancel")
    RESOLVE(cancel, "PQcancel")
    RESOLVE(freeCancel, "PQfreeCancel")
    RESOLVE(putCopyData, "PQputCopyData")
    RESOLVE(putCopyEnd, "PQputCopyEnd")
    RESOLVE(getCopyData, "PQgetCopyData")
    RESOLVE(setSingleRowMode, "PQsetSingleRowMode")
    RESOLVE(backendPID, "PQbackendPID")
    RESOLVE(setNoticeProcessor, "PQsetNoticeProcessor")
    RESOLVE(reset, "PQreset")
    RESOLVE(flush, "PQflush")
    *(void **)&table.enterPipelineMode = dlsym(library, "PQenterPipelineMode");
    *(void **)&table.exitPipelineMode = dlsym(library, "PQexitPipelineMode");
    *(void **)&table.pipelineSync = dlsym(library, "PQpipelineSync");
    loaded = &table;
}

const QuarryPQ *quarry_pq_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (!loaded && error && size > 0) snprintf(error, size, "%s", failure);
    return loaded;
}

static void quiet(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

void quarry_pq_quiet(const QuarryPQ *pq, PGconn *conn) {
    if (pq && pq->setNoticeProcessor && conn) pq->setNoticeProcessor(conn, quiet, NULL);
}
