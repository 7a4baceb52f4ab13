#include "quarry_shim.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static quarry_dispatcher swift_dispatcher = NULL;

void quarry_set_dispatcher(quarry_dispatcher dispatcher) { swift_dispatcher = dispatcher; }

/* Per-state allocator bookkeeping, kept in the state's allocator userdata. */
typedef struct {
    size_t used;
    size_t limit;
    int running_lua;   /* 1 while Lua code runs under quarry_pcall and not inside Swift */
    double deadline;   /* CLOCK_MONOTONIC seconds; 0: none */
} quarry_heap;

static double monotonic_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static quarry_heap *heap_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (quarry_heap *)ud;
}

static void *quarry_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    quarry_heap *heap = (quarry_heap *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        heap->used -= old;
        free(ptr);
        return NULL;
    }
    /* Only Lua code is refused memory: a refusal while Swift runs would raise across
       Swift frames, so Swift's own pushes are never refused. */
    if (heap->limit && heap->running_lua && nsize > old && heap->used - old + nsize > heap->limit)
        return NULL;
    void *block = realloc(ptr, nsize);
    if (block) heap->used = heap->used - old + nsize;
    return block;
}

static int trampoline(lua_State *L) {
    quarry_heap *heap = heap_of(L);
    /* Room for what a Swift function pushes, reserved before Swift runs: growing the
       stack later could raise a memory error across Swift frames. */
    luaL_checkstack(L, 40, "quarry: no room on the Lua stack");
    int was_running_lua = heap->running_lua;
    heap->running_lua = 0;
    int n = swift_dispatcher(L, lua_touserdata(L, lua_upvalueindex(1)));
    heap->running_lua = was_running_lua;
    if (n == QUARRY_RAISE) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
        return lua_error(L);
    }
    if (n == QUARRY_RERAISE) return lua_error(L);
    return n;
}

void quarry_push_swift_function(lua_State *L, void *context) {
    lua_pushlightuserdata(L, context);
    lua_pushcclosure(L, trampoline, 1);
}

lua_State *quarry_newstate(size_t limit) {
    quarry_heap *heap = calloc(1, sizeof *heap);
    if (!heap) return NULL;
    heap->limit = limit;
    lua_State *L = lua_newstate(quarry_alloc, heap);
    if (!L) { free(heap); return NULL; }
    return L;
}

size_t quarry_memory_in_use(lua_State *L) { return heap_of(L)->used; }

void quarry_close(lua_State *L) {
    quarry_heap *heap = heap_of(L);
    lua_close(L);
    free(heap);
}

static int message_handler(lua_State *L) {
    const char *msg = lua_tostring(L, 1);
    if (msg == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
        lua_replace(L, 1);
        lua_settop(L, 1);
    }
    luaL_traceback(L, L, NULL, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, "quarry.traceback");
    lua_settop(L, 1);
    return 1;
}

int quarry_pcall(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, message_handler);
    lua_insert(L, base);
    quarry_heap *heap = heap_of(L);
    int was_running_lua = heap->running_lua;
    heap->running_lua = 1;
    int status = lua_pcall(L, nargs, nresults, base);
    heap->running_lua = was_running_lua;
    lua_remove(L, base);
    return status;
}

const char *quarry_last_traceback(lua_State *L) {
    lua_getfield(L, LUA_REGISTRYINDEX, "quarry.traceback");
    const char *s = lua_tostring(L, -1);
    lua_pop(L, 1);  /* the string stays alive in the registry */
    return s;
}

/* As lua.c: the signal handler only sets a hook; the hook raises inside Lua. */
static lua_State *volatile interrupt_target = NULL;
static volatile sig_atomic_t sigint_pending = 0;

/* Unlike lua.c's, these hooks stay set once they fire: a script that wraps its loop in
   pcall catches the first error, and the next instruction outside raises again, so
   nothing can swallow an interrupt or a timeout. Swift clears them after the call. */
static void stop_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    luaL_error(L, "interrupted!");
}

void quarry_interrupt(lua_State *L) {
    lua_sethook(L, stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void quarry_clear_hooks(lua_State *L) {
    heap_of(L)->deadline = 0;
    lua_sethook(L, NULL, 0, 0);
}

static void on_sigint(int sig) {
    (void)sig;
    sigint_pending = 1;
    lua_State *L = interrupt_target;
    if (L) quarry_interrupt(L);
}

void quarry_catch_sigint(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);   /* no SA_RESTART: a waiting select() returns */
}

void quarry_set_interrupt_target(lua_State *L) { interrupt_target = L; }

int quarry_take_sigint(void) {
    int pending = sigint_pending;
    sigint_pending = 0;
    return pending;
}

static void deadline_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    quarry_heap *heap = heap_of(L);
    if (heap->deadline > 0 && monotonic_now() >= heap->deadline) {
        lua_sethook(L, deadline_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
        luaL_error(L, "timeout: the script ran past its time limit");
    }
}

void quarry_set_deadline(lua_State *L, double seconds) {
    quarry_heap *heap = heap_of(L);
    if (seconds > 0) {
        heap->deadline = monotonic_now() + seconds;
        lua_sethook(L, deadline_hook, LUA_MASKCOUNT, 10000);
    } else {
        heap->deadline = 0;
        lua_sethook(L, NULL, 0, 0);
    }
}

int quarry_loadfile(lua_State *L, const char *path) {
    /* luaL_loadfilex skips a first line starting with '#' (a shebang), as lua does. */
    return luaL_loadfilex(L, path, NULL);
}
