#include "quarry_shim.h"
#include "quarry_signals.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>

/* Every QuarryRuntime sets it (always to the same function), and runtimes on other
   threads (parallel tests) may be calling through it meanwhile: atomic, so that is not a
   data race (ThreadSanitizer reported it). */
static quarry_dispatcher swift_dispatcher = NULL;

void quarry_set_dispatcher(quarry_dispatcher dispatcher) {
    __atomic_store_n(&swift_dispatcher, dispatcher, __ATOMIC_RELEASE);
}

/* Small blocks Lua frees are kept, up to SMALL_CACHE bytes, for its next allocations of
   the same 16-byte size class. A loop over rows makes and frees one userdata per row, in
   bursts (a batch's objects made together, then swept together) that overflow malloc's
   per-size cache; a list here costs a few instructions instead. Every block of up to
   SMALL_MAX bytes is allocated rounded up to its class, so any block of a class fits
   any request of it. The blocks are malloc's, so realloc and free take them as well.
   1 MiB: a collection in a loop over rows frees some 10,000 userdata of 96 bytes at once;
   at 256 KiB two thirds of them went back to malloc and came out of it again (malloc and
   free were 5% of a loop's instructions), with no change to the loop's peak memory. */
#define SMALL_MAX 256
#define SMALL_CLASSES (SMALL_MAX / 16)
#define SMALL_CACHE (1024 * 1024)
#define SMALL_ROUND(n) (((n) + 15) & ~(size_t)15)

/* A state's first small blocks are carved in order from one arena rather than asked of
   malloc one by one: starting a state (the standard libraries, Quarry's bound functions,
   the prelude) asked malloc for some 800 blocks, and malloc for them and free for them at
   close were an eighth of `quarry -e 'local x = 1'`'s instructions (see
   docs/benchmarks.md, "Start-up").
   A block of the arena that Lua frees goes to its class's list as any other, whatever
   SMALL_CACHE says (the arena stays until the state closes, so it holds no more than its
   size); one that Lua grows or shrinks to another class moves out of it. Every block of
   up to SMALL_MAX bytes a state was given is one of its class, in the arena or not; the
   blocks outside it are malloc's. 64 KiB: below malloc's threshold for mapping, and a
   state starts with some 58 KiB of live blocks, not all small. */
#define ARENA_SIZE (64 * 1024)

/* Per-state allocator bookkeeping, kept in the state's allocator userdata. */
typedef struct {
    size_t used;
    size_t limit;
    int running_lua;   /* 1 while Lua code runs under quarry_pcall and not inside Swift */
    double deadline;   /* CLOCK_MONOTONIC seconds; 0: none */
    int gc_held;       /* loans (gc_hold) not given back: Swift runs, the collector waits */
    int swift_depth;   /* trampoline calls whose Swift function is running */
    uint64_t epoch;    /* see quarry_bump_epoch */
    uint64_t results_epoch;  /* see quarry_bump_results_epoch */
    uint64_t row_twins;      /* see quarry_row_twins */
    int over_limit;    /* Lua code passed the limit since the guard hook last looked */
    size_t outside;    /* bytes Swift holds for userdata made in the current call */
    void *small[SMALL_CLASSES];  /* freed small blocks by size class, see quarry_alloc */
    size_t small_cached;         /* the bytes they hold */
    char *arena;                 /* see ARENA_SIZE; NULL if it could not be had */
    size_t arena_used;           /* bytes given out of it, from its start */
} quarry_heap;

static int in_arena(const quarry_heap *heap, const void *block) {
    return heap->arena && (const char *)block >= heap->arena && (const char *)block < heap->arena + ARENA_SIZE;
}

/* Keeps a small block Lua freed (of `size` bytes, as Lua knew it) for the next request of
   its class, or gives it back to malloc when enough are kept (never an arena block). */
static void release_small(quarry_heap *heap, void *block, size_t size) {
    if (in_arena(heap, block) || heap->small_cached + SMALL_ROUND(size) <= SMALL_CACHE) {
        size_t c = SMALL_ROUND(size) / 16 - 1;
        *(void **)block = heap->small[c];
        heap->small[c] = block;
        heap->small_cached += SMALL_ROUND(size);
    } else {
        free(block);
    }
}

/* A new block for a request of `size` bytes, up to SMALL_MAX: a kept one of its class,
   else the arena's next, else malloc's. */
static void *new_small(quarry_heap *heap, size_t size) {
    size_t rounded = SMALL_ROUND(size);
    size_t c = rounded / 16 - 1;
    void *block = heap->small[c];
    if (block) {
        heap->small[c] = *(void **)block;
        heap->small_cached -= rounded;
        return block;
    }
    if (heap->arena && heap->arena_used + rounded <= ARENA_SIZE) {
        block = heap->arena + heap->arena_used;
        heap->arena_used += rounded;
        return block;
    }
    return malloc(rounded);
}

static quarry_heap *heap_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (quarry_heap *)ud;
}

/* The collector is held off while Swift runs (a step could run a user __gc that re-enters
   Swift, or allocate outside the memory cap) by lending it a debt it cannot pay off in
   any one call: Lua collects only once its debt is positive. LUA_GCSTOP would do, but
   LUA_GCRESTART sets the debt to zero, ending the collector's pause at every return from
   Swift: a loop that called a Quarry function and allocated a table ran a collector step
   on every turn (300,000 turns took 9 s, against 0.1 s now), and a walk over rows ran a
   whole cycle per batch. Given back, the loan leaves the debt as if Swift's allocations
   had been Lua's own, so the collector keeps the pace `collectgarbage` set. */
#define GC_LOAN_KB (1 << 30)  /* 1 TiB: more than Swift can allocate in one call */

/* Holds the collector off if it runs (not stopped by the script, not inside a finalizer),
   by one more loan; returns whether it did. */
static int gc_hold(lua_State *L) {
    if (lua_gc(L, LUA_GCISRUNNING) != 1) return 0;
    lua_gc(L, LUA_GCSTEP, -GC_LOAN_KB);
    heap_of(L)->gc_held++;
    return 1;
}

/* Gives back loans until `level` are left: the collector then runs a step if its own
   debt is due. Only where a step may run: after Swift returned, or before Lua code runs.
   A collector that a callback stopped meanwhile (collectgarbage("stop")) stays stopped:
   its debt means nothing until a restart sets it to zero, so it is set to zero now,
   without the step that LUA_GCSTEP would run even then. Loans are taken and given back
   by count, so a callback may change how many are out (see quarry_pcall). */
static void gc_give_back_to(lua_State *L, int level) {
    quarry_heap *heap = heap_of(L);
    while (heap->gc_held > level) {
        heap->gc_held--;
        if (lua_gc(L, LUA_GCISRUNNING) == 1) {
            lua_gc(L, LUA_GCSTEP, GC_LOAN_KB);
        } else {
            lua_gc(L, LUA_GCRESTART);
            lua_gc(L, LUA_GCSTOP);
        }
    }
}

static void *quarry_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    quarry_heap *heap = (quarry_heap *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        heap->used -= old;
        if (ptr && old > 0 && old <= SMALL_MAX) {
            release_small(heap, ptr, old);
        } else {
            free(ptr);
        }
        return NULL;
    }
    /* Only Lua code is refused memory: a refusal while Swift runs would raise across
       Swift frames, so Swift's own pushes are never refused. */
    /* Past the limit the guard hook is told, and raises a "not enough memory" error with
       the script's position (a refusal here cannot say where). Memory is refused only
       past a quarter more, for C functions that allocate without running Lua code. */
    if (heap->limit && heap->running_lua && nsize > old && heap->used - old + nsize > heap->limit) {
        heap->over_limit = 1;
        if (heap->used - old + nsize > heap->limit + heap->limit / 4) return NULL;
    }
    void *block;
    if (ptr && old > 0 && old <= SMALL_MAX && nsize <= SMALL_MAX && SMALL_ROUND(old) == SMALL_ROUND(nsize)) {
        block = ptr;  /* the same class: the block already has room */
    } else if (ptr && in_arena(heap, ptr)) {
        /* Out of the arena (realloc cannot take its blocks): copied, and the old block kept. */
        block = nsize > SMALL_MAX ? malloc(nsize) : new_small(heap, nsize);
        if (block) {
            memcpy(block, ptr, old < nsize ? old : nsize);
            release_small(heap, ptr, old);
        }
    } else if (nsize > SMALL_MAX) {
        block = realloc(ptr, nsize);
    } else if (ptr == NULL) {
        block = new_small(heap, nsize);
    } else {
        block = realloc(ptr, SMALL_ROUND(nsize));
    }
    if (block) heap->used = heap->used - old + nsize;
    return block;
}

/* Gives back the small blocks kept for reuse (the state is closed). */
static void free_small_blocks(quarry_heap *heap) {
    for (int c = 0; c < SMALL_CLASSES; c++) {
        while (heap->small[c]) {
            void *next = *(void **)heap->small[c];
            if (!in_arena(heap, heap->small[c])) free(heap->small[c]);
            heap->small[c] = next;
        }
    }
    heap->small_cached = 0;
    free(heap->arena);
    heap->arena = NULL;
}

/* The position of the innermost Lua code that led here ("script.lua:3: "), skipping
   C frames (a metamethod called from table.sort) and Quarry's own prelude. */
static void push_position(lua_State *L) {
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar)) break;
        if (ar.currentline > 0 && strcmp(ar.source, "=(quarry prelude)") != 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

static int trampoline(lua_State *L) {
    quarry_heap *heap = heap_of(L);
    /* Room for what a Swift function pushes, reserved before Swift runs: growing the
       stack later could raise a memory error across Swift frames. */
    luaL_checkstack(L, 40, "quarry: no room on the Lua stack");
    int was_running_lua = heap->running_lua;
    heap->running_lua = 0;
    /* No collection while Swift runs (see gc_hold). */
    int level = heap->gc_held;
    int held = gc_hold(L);
    size_t used_before = heap->used;
    heap->swift_depth++;
    int n = __atomic_load_n(&swift_dispatcher, __ATOMIC_ACQUIRE)(L, lua_touserdata(L, lua_upvalueindex(1)));
    heap->swift_depth--;
    heap->running_lua = was_running_lua;
    /* What Swift allocated in Lua's heap is in the collector's debt already. */
    held = held || heap->gc_held > level;
    gc_give_back_to(L, level);
    if (held) {
        /* Swift memory that userdata hold (an object each) counts too: the collector
           cannot see it, and a loop that makes objects would otherwise let them pile up.
           Calls that each make one object add up until they are worth a step. */
        if (heap->outside > 4096 && lua_gc(L, LUA_GCISRUNNING) == 1) {
            size_t outside = heap->outside;
            heap->outside = 0;
            lua_gc(L, LUA_GCSTEP, (int)(outside / 1024));
        }
        /* What Swift pushed for Lua (a table of every row) counts against --memory as
           Lua's own allocations do: Swift is never refused memory (it cannot be unwound),
           so the call that took the heap over the limit raises now, back in C, unless
           collecting brings it under. */
        if (n >= 0 && was_running_lua && heap->limit && heap->used > used_before && heap->used > heap->limit) {
            lua_gc(L, LUA_GCCOLLECT);
            if (heap->used > heap->limit) {
                /* What the call built is dropped first, its objects finalized by one
                   collection and freed by the next, so a script that catches the error
                   goes on under the limit. The message is never refused memory. */
                lua_pop(L, n);
                lua_gc(L, LUA_GCCOLLECT);
                lua_gc(L, LUA_GCCOLLECT);
                heap->running_lua = 0;
                push_position(L);
                lua_pushfstring(L, "not enough memory: the Lua heap is over the --memory limit (%d MB)", (int)(heap->limit >> 20));
                lua_concat(L, 2);
                heap->running_lua = was_running_lua;
                return lua_error(L);
            }
        }
    }
    if (n == QUARRY_RAISE) {
        push_position(L);
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
    heap->arena = malloc(ARENA_SIZE);  /* none: every block is malloc's, as before */
    lua_State *L = lua_newstate(quarry_alloc, heap);
    if (!L) { free(heap->arena); free(heap); return NULL; }
    quarry_install_guard(L);
    return L;
}

void quarry_note_outside_bytes(lua_State *L, size_t bytes) {
    heap_of(L)->outside += bytes;
}

size_t quarry_memory_room(lua_State *L) {
    quarry_heap *heap = heap_of(L);
    if (!heap->limit) return (size_t)-1;
    return heap->used >= heap->limit ? 0 : heap->limit - heap->used;
}

size_t quarry_memory_limit(lua_State *L) {
    return heap_of(L)->limit;
}

void quarry_close(lua_State *L) {
    quarry_heap *heap = heap_of(L);
    lua_close(L);
    free_small_blocks(heap);
    free(heap);
}

/* Gives back the collector's loans, then calls its first argument with the others: in
   the protected call of a callback, so the step the return may run (and its finalizers)
   runs as part of the callback, as the callback's first allocation would run it. */
static int call_given_back(lua_State *L) {
    gc_give_back_to(L, 0);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
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
    lua_pushliteral(L, "quarry.traceback");
    luaL_traceback(L, L, NULL, 1);
    lua_rawset(L, LUA_REGISTRYINDEX);  /* raw: the registry's metatable is not trusted */
    lua_settop(L, 1);
    return 1;
}

int quarry_pcall(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, message_handler);
    lua_insert(L, base);
    quarry_heap *heap = heap_of(L);
    /* A callback Swift runs (an observer) collects as Lua code normally does: the loans
       are given back for it, inside the protected call (call_given_back). */
    if (heap->gc_held > 0) {
        lua_pushcfunction(L, call_given_back);
        lua_insert(L, base + 1);
        nargs++;
    }
    int was_running_lua = heap->running_lua;
    heap->running_lua = 1;
    int status = lua_pcall(L, nargs, nresults, base);
    /* Back to Swift: one loan holds the collector off again (the trampolines around give
       back what is out past their own level). Also when it was stopped as Swift was
       called and the callback restarted it. */
    if (heap->swift_depth > 0) gc_hold(L);
    heap->running_lua = was_running_lua;
    lua_remove(L, base);
    return status;
}

const char *quarry_last_traceback(lua_State *L) {
    lua_pushliteral(L, "quarry.traceback");
    lua_rawget(L, LUA_REGISTRYINDEX);
    const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    lua_pop(L, 1);  /* the string stays alive in the registry */
    return s;
}

/* The guard: a count hook that checks three requests, an interrupt (SIGINT), the
   deadline (--timeout) and the memory limit (--memory). Once an interrupt or the deadline
   is seen it raises at every check until Swift clears it after the top-level call
   returns, so a script that wraps its loop in pcall cannot swallow it.

   In Lua 5.4 a count hook costs a call on every instruction, whatever its count (a
   plain loop runs about twice as slowly), so the main thread has it only while something
   needs checking from inside Lua: a deadline or a memory limit. An interrupt sets it
   from the SIGINT handler (lua_sethook may be called asynchronously, as lua.c does for
   Ctrl-C) on the state of the statement running. A coroutine is another thread, which
   the handler cannot know is running: each gets the coarse hook when it is made. */
static void guard_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    const char *reason = NULL;
    if (quarry_interrupt_requested()) reason = "interrupted!";
    quarry_heap *heap = heap_of(L);
    if (!reason && heap->deadline > 0 && quarry_monotonic_now() >= heap->deadline)
        reason = "timeout: the script ran past its time limit";
    if (!reason && heap->over_limit) {
        /* Garbage may be all that passed the limit: collect, and raise only when what is
           still in use is over it. Once: a pcall may catch it, as any memory error. */
        heap->over_limit = 0;
        lua_gc(L, LUA_GCCOLLECT);
        if (heap->used <= heap->limit) return;
        luaL_where(L, 0);
        lua_pushfstring(L, "not enough memory: the Lua heap is over the --memory limit (%d MB)", (int)(heap->limit >> 20));
        lua_concat(L, 2);
        lua_error(L);
    }
    if (!reason) return;
    /* From now on check at every call, return and instruction of this thread, so the
       code around a pcall that caught this cannot run on. */
    lua_sethook(L, guard_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    /* In a hook, level 0 is the function that was running; a C function (a call hook
       into save()) has no line, so its caller's is given. */
    lua_Debug running;
    int in_c = lua_getstack(L, 0, &running) && lua_getinfo(L, "l", &running) && running.currentline <= 0;
    luaL_where(L, in_c ? 1 : 0);
    lua_pushstring(L, reason);
    lua_concat(L, 2);
    lua_error(L);
}

/* Whether Lua code on the main thread must be checked without a signal's help. */
static int needs_guard(lua_State *L) {
    quarry_heap *heap = heap_of(L);
    return heap->deadline > 0 || heap->limit > 0 || quarry_interrupt_requested();
}

void quarry_install_guard(lua_State *L) {
    if (needs_guard(L)) lua_sethook(L, guard_hook, LUA_MASKCOUNT, 1000);
    else lua_sethook(L, NULL, 0, 0);
}

/* The state whose statement runs (quarry_guard_statement), for the SIGINT handler. */
static lua_State *guarded_state = NULL;

static void interrupt_guarded_state(void) {
    lua_State *L = __atomic_load_n(&guarded_state, __ATOMIC_ACQUIRE);
    /* Count 1: the next instruction looks; the hook then keeps itself on every one. */
    if (L) lua_sethook(L, guard_hook, LUA_MASKCOUNT, 1);
}

int quarry_guard_statement(lua_State *L) {
    quarry_on_interrupt(interrupt_guarded_state);
    lua_State *none = NULL;
    /* One state at a time (the first): several runtimes may share a test process. */
    return __atomic_compare_exchange_n(&guarded_state, &none, L, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void quarry_end_guarded_statement(lua_State *L) {
    lua_State *expected = L;
    __atomic_compare_exchange_n(&guarded_state, &expected, NULL, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* coroutine.create as Lua's own (lcorolib.c's luaB_cocreate), then the coarse guard on
   the new thread. Made here rather than calling the original, so an error names
   'create' as before and no unguarded original stays reachable. */
static int create_guarded(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *thread = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, thread, 1);
    lua_sethook(thread, guard_hook, LUA_MASKCOUNT, 1000);
    return 1;
}

void quarry_guard_coroutines(lua_State *L) {
    if (lua_getglobal(L, "coroutine") == LUA_TTABLE) {
        lua_pushcfunction(L, create_guarded);
        lua_setfield(L, -2, "create");
    }
    lua_pop(L, 1);
}

/* At the deadline the alarm interrupts what the thread it reaches waits in (the main
   thread, Lua's, which Linux prefers for a process's signals), and the hard stop follows.
   It is installed without SA_RESTART, so a read(2) that waits for a writer (io.read on a
   FIFO) returns EINTR at the deadline, and the hook is set to look at
   the very next instruction (as Ctrl-C does): the script ends with the usual timeout line
   at the deadline, not at the hard stop. Without this a script blocked in read(2), using
   no CPU, ran on until the wall-clock fallback, ten seconds past the deadline.

   A finalizer or message handler runs with hooks off and could spin past the deadline:
   the hard stop ends the process two seconds after it. Two seconds of the process's own
   CPU time, not of the clock: on a machine busy with other work a script stopping
   normally may take longer than that to be scheduled, and must not be killed for it. A
   script blocked without spinning in a read that restarts after a signal is ended ten
   seconds after. Every tick of the alarm interrupts a waiting read again. */
static double hard_stop_cpu_start, hard_stop_cpu_budget, hard_stop_wall_end, hard_stop_at;

static double process_cpu_seconds(void) {
    struct timespec t;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0;
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void arm_alarm(double seconds) {
    struct itimerval timer;
    memset(&timer, 0, sizeof timer);
    if (seconds < 0.001) seconds = 0.001;
    timer.it_value.tv_sec = (time_t)seconds;
    timer.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
    setitimer(ITIMER_REAL, &timer, NULL);
}

static void hard_stop(int sig) {
    (void)sig;
    int saved = errno;
    /* Lua's next instruction raises the timeout (the guard hook sees the deadline). */
    interrupt_guarded_state();
    double now = quarry_monotonic_now();
    if (now < hard_stop_at) {
        arm_alarm(hard_stop_at - now);
        errno = saved;
        return;
    }
    if (process_cpu_seconds() - hard_stop_cpu_start < hard_stop_cpu_budget && now < hard_stop_wall_end) {
        arm_alarm(1.0);
        errno = saved;
        return;
    }
    /* Said with what the process was busy with, where it said (the model it defined). */
    static const char message[] = "timeout: the script ran past its time limit";
    static const char busy[] = " while ";
    static const char stopped[] = " (stopped)\n";
    size_t length = 0;
    const char *activity = quarry_activity(&length);
    ssize_t ignored = write(2, message, sizeof message - 1);
    if (length > 0) {
        ignored = write(2, busy, sizeof busy - 1);
        ignored = write(2, activity, length);
    }
    ignored = write(2, stopped, sizeof stopped - 1);
    (void)ignored;
    _exit(1);
}

void quarry_clear_hooks(lua_State *L) {
    quarry_clear_stop_requests();
    heap_of(L)->deadline = 0;
    quarry_install_guard(L);
    struct itimerval off;
    memset(&off, 0, sizeof off);
    setitimer(ITIMER_REAL, &off, NULL);
}

void quarry_set_deadline(lua_State *L, double seconds) {
    quarry_heap *heap = heap_of(L);
    if (seconds > 0) {
        heap->deadline = quarry_monotonic_now() + seconds;
        quarry_set_process_deadline(heap->deadline);
        double grace = seconds + 2.0;
        hard_stop_cpu_start = process_cpu_seconds();
        hard_stop_cpu_budget = grace;
        hard_stop_at = heap->deadline + 2.0;
        hard_stop_wall_end = heap->deadline + 10.0;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = hard_stop;
        sigemptyset(&action.sa_mask);
        sigaction(SIGALRM, &action, NULL);   /* no SA_RESTART: a waiting read(2) returns */
        arm_alarm(seconds);
    } else {
        heap->deadline = 0;
        quarry_set_process_deadline(0);
        struct itimerval off;
        memset(&off, 0, sizeof off);
        setitimer(ITIMER_REAL, &off, NULL);
    }
    /* The main thread is checked from now on only while there is a deadline to check. */
    quarry_install_guard(L);
}

int quarry_loadfile(lua_State *L, const char *path, const char *mode) {
    /* luaL_loadfilex skips a first line starting with '#' (a shebang), as lua does. */
    return luaL_loadfilex(L, path, mode);
}

void quarry_bump_epoch(lua_State *L) {
    quarry_heap *heap = heap_of(L);
    heap->epoch++;
    heap->results_epoch++;
}

void quarry_bump_results_epoch(lua_State *L) { heap_of(L)->results_epoch++; }

uint64_t quarry_results_epoch(lua_State *L) { return heap_of(L)->results_epoch; }

uint64_t quarry_row_twins(lua_State *L) { return heap_of(L)->row_twins; }

void quarry_note_row_twin(lua_State *L) { heap_of(L)->row_twins++; }

/* The epoch the cache of `results` was made in, as it moves now. */
static inline uint64_t results_cache_epoch(lua_State *L, const quarry_results_block *results) {
    const quarry_heap *heap = heap_of(L);
    return results->saved_rows ? heap->epoch : heap->results_epoch;
}

int quarry_gc_pause(lua_State *L) { return gc_hold(L); }

void quarry_gc_resume(lua_State *L, int paused) {
    if (paused) gc_give_back_to(L, heap_of(L)->gc_held - 1);
}

uint64_t quarry_epoch(lua_State *L) { return heap_of(L)->epoch; }

const uint64_t *quarry_epoch_address(lua_State *L) { return &heap_of(L)->epoch; }

/* The same values for every state (they name userdata kinds); atomic because runtimes
   on other threads (parallel tests) set and read them. */
static uint64_t object_cookie, results_cookie, section_cookie, date_cookie;

void quarry_set_cookies(uint64_t object, uint64_t results, uint64_t section, uint64_t date) {
    __atomic_store_n(&object_cookie, object, __ATOMIC_RELAXED);
    __atomic_store_n(&results_cookie, results, __ATOMIC_RELAXED);
    __atomic_store_n(&section_cookie, section, __ATOMIC_RELAXED);
    __atomic_store_n(&date_cookie, date, __ATOMIC_RELAXED);
}

/* Its address is the registry key of the dates' metatable. */
static const char date_metatable_key = 0;

void quarry_set_date_metatable(lua_State *L) {
    lua_rawsetp(L, LUA_REGISTRYINDEX, &date_metatable_key);
}

/* Its address is the registry key of the metatable of dates read from a column of days
   (Userdata.swift's `dayMetatable`). */
static const char day_metatable_key = 0;

void quarry_set_day_metatable(lua_State *L) {
    lua_rawsetp(L, LUA_REGISTRYINDEX, &day_metatable_key);
}

/* A date as Swift's pushDate makes it: the cookie, then the seconds' bits; a day's with
   the metatable of days. */
static int push_date(lua_State *L, double seconds, int day) {
    uint64_t *block = lua_newuserdatauv(L, 2 * sizeof(uint64_t), 0);
    block[0] = __atomic_load_n(&date_cookie, __ATOMIC_RELAXED);
    memcpy(&block[1], &seconds, sizeof seconds);
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, day ? &day_metatable_key : &date_metatable_key) != LUA_TTABLE) {
        lua_pop(L, 2);
        return 0;
    }
    lua_setmetatable(L, -2);
    return 1;
}

/* Calls the Swift function in upvalue 1 with this call's arguments. */
static int call_swift_index(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 2, 1);
    return 1;
}

/* Pushes the value of cell `c` for an attribute read as `kind`, as Swift would push it
   (AttributeType.decode, then pushValue or LuaJSON); returns 0, pushing nothing, where
   Swift must answer. */
static inline __attribute__((always_inline)) int push_cell(lua_State *L, const quarry_rows_block *batch, const quarry_cell *c, int kind) {
    switch (c->tag) {
    case QUARRY_CELL_NULL:
        lua_pushnil(L);
        return 1;
    case QUARRY_CELL_INTEGER:
        switch (kind) {
        case QUARRY_FIELD_BOOL: lua_pushboolean(L, c->value != 0); return 1;
        case QUARRY_FIELD_DATE: return push_date(L, (double)c->value, 0);
        case QUARRY_FIELD_DAY: return push_date(L, (double)c->value, 1);
        case QUARRY_FIELD_DECIMAL: return 0;
        default: lua_pushinteger(L, c->value); return 1;
        }
    case QUARRY_CELL_REAL: {
        double d;
        memcpy(&d, &c->value, sizeof d);
        switch (kind) {
        case QUARRY_FIELD_BOOL: lua_pushboolean(L, d != 0); return 1;
        case QUARRY_FIELD_DATE: return push_date(L, d, 0);
        case QUARRY_FIELD_DAY: return push_date(L, d, 1);
        case QUARRY_FIELD_DECIMAL: return 0;
        default: lua_pushnumber(L, d); return 1;
        }
    }
    case QUARRY_CELL_TEXT:
        /* Dates and booleans kept as text, and exact decimals (PostgreSQL's numeric, read
           as its text), are read in Swift (AttributeType.decode). */
        if (kind == QUARRY_FIELD_JSON || kind == QUARRY_FIELD_DATE || kind == QUARRY_FIELD_DAY || kind == QUARRY_FIELD_BOOL || kind == QUARRY_FIELD_DOUBLE
            || kind == QUARRY_FIELD_DECIMAL) return 0;
        lua_pushlstring(L, (const char *)batch->bytes + c->value, (size_t)c->length);
        return 1;
    case QUARRY_CELL_BLOB:
        lua_pushlstring(L, (const char *)batch->bytes + c->value, (size_t)c->length);
        return 1;
    default:
        return 0;
    }
}

static lua_Integer slow_field_code(lua_State *L);

/* The field code of the key at index 2 in `batch`, or -1; `name` is the key's
   lua_topointer (an interned string's own object, NULL for a number). */
static inline __attribute__((always_inline)) lua_Integer field_code(lua_State *L, const quarry_rows_block *batch, const void *name) {
    for (int64_t i = 0; i < batch->fast_count; i++)
        if (batch->fast_names[i] == name) return batch->fast_codes[i];
    return slow_field_code(L);
}

/* field_code past the interned names: the user value table of the batch at index 3. */
static __attribute__((noinline)) lua_Integer slow_field_code(lua_State *L) {
    /* A long name (not interned), or one past the first QUARRY_FAST_FIELDS: the table. */
    if (lua_getiuservalue(L, 3, 1) != LUA_TTABLE) return -1;
    lua_pushvalue(L, 2);
    int isnum = 0;
    lua_Integer code = lua_rawget(L, -2) == LUA_TNUMBER ? lua_tointegerx(L, -1, &isnum) : -1;
    return isnum ? code : -1;
}

static int object_index(lua_State *L) {
    const quarry_object_block *object = lua_touserdata(L, 1);
    if (object == NULL || lua_rawlen(L, 1) != sizeof *object
        || object->cookie != __atomic_load_n(&object_cookie, __ATOMIC_RELAXED) || object->payload != 0
        || lua_getiuservalue(L, 1, 1) != LUA_TUSERDATA || lua_touserdata(L, 3) != (const void *)object->batch)
        return call_swift_index(L);
    const quarry_rows_block *batch = object->batch;
    uint64_t epoch = batch->current_epoch ? *batch->current_epoch : heap_of(L)->epoch;
    if (batch->epoch != epoch || object->row < 0 || object->row >= batch->rows) return call_swift_index(L);
    /* Not lua_type then lua_tostring: one call a read fewer (two run for every row of a
       loop). A key that is no string matches no name, and the table has none for it. */
    lua_Integer code = field_code(L, batch, lua_topointer(L, 2));
    lua_Integer column = (code >> 3) & 0x1FFF, attribute = code >> 16;
    if (code < 0 || column >= batch->columns) return call_swift_index(L);
    if (attribute < 64 && batch->attributes_read) *batch->attributes_read |= (uint64_t)1 << attribute;
    const quarry_cell *cell = &batch->cells[object->row * batch->columns + column];
    if (!push_cell(L, batch, cell, (int)(code & 7))) return call_swift_index(L);
    return 1;
}

void quarry_wrap_object_index(lua_State *L) {
    lua_pushcclosure(L, object_index, 1);
}

static int results_index(lua_State *L) {
    const quarry_results_block *results = lua_touserdata(L, 1);
    int isnum = 0;
    lua_Integer index = lua_type(L, 2) == LUA_TNUMBER ? lua_tointegerx(L, 2, &isnum) : 0;
    if (results == NULL || !isnum || lua_rawlen(L, 1) != sizeof *results
        || (results->cookie != __atomic_load_n(&results_cookie, __ATOMIC_RELAXED)
            && results->cookie != __atomic_load_n(&section_cookie, __ATOMIC_RELAXED))
        || results->epoch != results_cache_epoch(L, results) || index < results->first)
        return call_swift_index(L);
    /* Unsigned, so that no index and first can overflow. */
    lua_Unsigned offset = (lua_Unsigned)index - (lua_Unsigned)results->first;
    if (offset >= (lua_Unsigned)results->count || lua_getiuservalue(L, 1, 1) != LUA_TTABLE
        || lua_rawgeti(L, -1, (lua_Integer)offset + 1) != LUA_TUSERDATA)
        return call_swift_index(L);
    return 1;
}

void quarry_wrap_results_index(lua_State *L) {
    lua_pushcclosure(L, results_index, 1);
}

static char registry_slots[QUARRY_REGISTRY_SLOTS];

void *quarry_registry_slot(int slot) {
    return &registry_slots[slot];
}

/* `Item:new` and the like: the method from its kind's table, with no call of Swift. */
static int method_index(lua_State *L) {
    if (lua_type(L, 2) == LUA_TSTRING
        && lua_rawgetp(L, LUA_REGISTRYINDEX, lua_touserdata(L, lua_upvalueindex(2))) == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, -2) != LUA_TNIL) return 1;
    }
    return call_swift_index(L);
}

void quarry_wrap_method_index(lua_State *L, int methods) {
    lua_pushlightuserdata(L, quarry_registry_slot(methods));
    lua_pushcclosure(L, method_index, 2);
}

/* ipairs's step: as the standard one (the next index, then t[i] through any __index), but
   for results and sections whose cached objects hold index i, the object straight from
   them, without the call of __index for every row of a loop. */
static int ipairs_step(lua_State *L) {
    int isnum = 0;
    lua_Integer i = lua_tointegerx(L, 2, &isnum);
    if (!isnum) i = luaL_checkinteger(L, 2);
    i = (lua_Integer)((lua_Unsigned)i + 1);
    /* lua_touserdata answers NULL for anything but a userdata, and a light one has no
       length: one call a row fewer than asking the type first. */
    const quarry_results_block *results = lua_touserdata(L, 1);
    if (results != NULL && lua_rawlen(L, 1) == sizeof(quarry_results_block)) {
        lua_Unsigned offset = (lua_Unsigned)i - (lua_Unsigned)results->first;
        if ((results->cookie == __atomic_load_n(&results_cookie, __ATOMIC_RELAXED)
             || results->cookie == __atomic_load_n(&section_cookie, __ATOMIC_RELAXED))
            && results->epoch == results_cache_epoch(L, results) && i >= results->first && offset < (lua_Unsigned)results->count
            && lua_getiuservalue(L, 1, 1) == LUA_TTABLE) {
            /* Stack: r, i, objects, i, object: the last two are the results. */
            lua_pushinteger(L, i);
            if (lua_rawgeti(L, 3, (lua_Integer)offset + 1) == LUA_TUSERDATA) return 2;
        }
        lua_settop(L, 2);
    }
    lua_pushinteger(L, i);
    return lua_geti(L, 1, i) == LUA_TNIL ? 1 : 2;
}

static int ipairs(lua_State *L) {
    luaL_checkany(L, 1);
    /* A value that is read afresh at each index (a to-many set) gives a table of what it
       holds now, as Core Data's sets are iterated: deleting members in the loop skips
       none, and each step is no new read. */
    if (luaL_getmetafield(L, 1, "__quarry_snapshot") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 1);
        lua_pushcfunction(L, ipairs_step);
        lua_insert(L, -2);
        lua_pushinteger(L, 0);
        return 3;
    }
    lua_pushcfunction(L, ipairs_step);
    lua_pushvalue(L, 1);
    lua_pushinteger(L, 0);
    return 3;
}

void quarry_install_ipairs(lua_State *L) {
    lua_pushcfunction(L, ipairs);
    lua_setglobal(L, "ipairs");
}

#define CHUNK_SIZE ((lua_Integer)1 << QUARRY_CHUNK_BITS)
#define CHUNK_OF(key) ((key) >> QUARRY_CHUNK_BITS)
#define SLOT_OF(key) (((key) & (CHUNK_SIZE - 1)) + 1)

int quarry_find_row(lua_State *L, int identities, int chunks, lua_Integer key) {
    identities = lua_absindex(L, identities);
    chunks = lua_absindex(L, chunks);
    if (lua_rawgeti(L, chunks, CHUNK_OF(key)) == LUA_TTABLE) {
        int type = lua_rawgeti(L, -1, SLOT_OF(key));
        lua_remove(L, -2);
        if (type == LUA_TUSERDATA) return type;
    }
    lua_pop(L, 1);
    return lua_rawgeti(L, identities, key);
}

/* Keys that rise, spanning less than twice their count: a walk in key order, whose rows
   fill a chunk's slots densely. */
static int rises_densely(const int64_t *keys, int64_t from, int64_t count) {
    if (count <= 0) return 0;
    for (int64_t i = from + 1; i < from + count; i++)
        if (keys[i] <= keys[i - 1]) return 0;
    /* Rising, so the unsigned difference is the exact span. */
    uint64_t span = (uint64_t)keys[from + count - 1] - (uint64_t)keys[from];
    return span < 2 * (uint64_t)count;
}

static int is_empty(lua_State *L, int table) {
    lua_pushnil(L);
    if (lua_next(L, table) == 0) return 1;
    lua_pop(L, 2);
    return 0;
}

void quarry_fill_batch_objects(lua_State *L, int objects, int rows, int identities, int chunks, int weak, int metatable,
                               const int64_t *keys, const unsigned char *skip, int64_t from, int64_t count) {
    const quarry_rows_block *batch = lua_touserdata(L, rows);
    uint64_t cookie = __atomic_load_n(&object_cookie, __ATOMIC_RELAXED);
    int dense = rises_densely(keys, from, count);
    /* Looked in only when they hold something: a first walk then asks nothing per row. */
    int look_identities = !is_empty(L, identities), look_chunks = !is_empty(L, chunks);
    int fields = 0, chunk = 0, linked = 0, fresh = 0, have_chunk = 0;
    lua_Integer current = 0;
    if (dense) {
        if (lua_getiuservalue(L, rows, 1) != LUA_TTABLE) {
            lua_pop(L, 1);
            dense = 0;
        } else {
            fields = lua_gettop(L);
            lua_pushnil(L);
            chunk = lua_gettop(L);
        }
    }
    for (int64_t i = from; i < from + count; i++) {
        if (skip && skip[i]) continue;
        lua_Integer key = keys[i];
        if (dense && (!have_chunk || CHUNK_OF(key) != current)) {
            current = CHUNK_OF(key);
            fresh = 0;
            if (lua_rawgeti(L, chunks, current) != LUA_TTABLE) {
                fresh = 1;
                lua_pop(L, 1);
                lua_createtable(L, (int)CHUNK_SIZE, 0);
                lua_pushvalue(L, weak);
                lua_setmetatable(L, -2);
                lua_pushvalue(L, -1);
                lua_rawseti(L, chunks, current);
            }
            /* The batch's field table holds its chunks (by number, beside the names). */
            lua_pushvalue(L, -1);
            lua_rawseti(L, fields, ++linked);
            lua_replace(L, chunk);
            have_chunk = 1;
        }
        int type, recorded = 0;
        quarry_object_block *object = NULL;
        if (dense && fresh && !look_identities) {
            /* A chunk made by this batch holds nothing yet, and nothing is recorded by key:
               a new userdata, with no look (the first walk over a table). */
            type = LUA_TNONE;
        } else if (dense) {
            type = fresh ? (lua_pushnil(L), LUA_TNIL) : lua_rawgeti(L, chunk, SLOT_OF(key));
            if (type != LUA_TUSERDATA && look_identities) {
                lua_pop(L, 1);
                type = lua_rawgeti(L, identities, key);
            }
        } else if (look_chunks) {
            type = quarry_find_row(L, identities, chunks, key);
        } else {
            type = lua_rawgeti(L, identities, key);
            recorded = 1;
        }
        if (type == LUA_TUSERDATA) {
            object = lua_touserdata(L, -1);
            if (lua_rawlen(L, -1) != sizeof *object || object->cookie != cookie || object->payload != 0) object = NULL;
        }
        if (object == NULL) {
            /* A second userdata for a row Lua already holds one for (see quarry_row_twins). */
            if (type == LUA_TUSERDATA) quarry_note_row_twin(L);
            if (type != LUA_TNONE) lua_pop(L, 1);
            /* The batch, and the keeper of its object once it is made (Swift's `adopt`). */
            object = lua_newuserdatauv(L, sizeof *object, 2);
            object->cookie = cookie;
            object->payload = 0;
            lua_pushvalue(L, metatable);
            lua_setmetatable(L, -2);
            recorded = 0;
        }
        /* Recorded where this batch keeps it findable. */
        if (dense) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, chunk, SLOT_OF(key));
        } else if (!recorded) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, identities, key);
        }
        object->row = i;
        object->key = key;
        object->batch = batch;
        lua_pushvalue(L, rows);
        lua_setiuservalue(L, -2, 1);
        lua_rawseti(L, objects, i - from + 1);
    }
    if (dense) lua_pop(L, 2);
}
