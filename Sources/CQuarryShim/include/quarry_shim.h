// The only C that Swift needs to reach Lua safely: Lua's macros as functions, a state
// whose allocator can be capped, and the trampoline that raises Lua errors on Swift's
// behalf once the Swift frames have returned.
#ifndef QUARRY_SHIM_H
#define QUARRY_SHIM_H

#include <stddef.h>
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
#include "quarry_signals.h"
#include "quarry_rows.h"

/// What a Swift function bound into Lua returns instead of raising.
enum {
    /// The Swift function left an error message on the top of the stack; the trampoline
    /// prefixes it with the caller's position ("script.lua:3: ") and raises it.
    QUARRY_RAISE = -1,
    /// As QUARRY_RAISE, but the value on top is raised as it is (already positioned).
    QUARRY_RERAISE = -2,
};

/// The single Swift entry point: `context` identifies the bound Swift closure.
/// Returns the number of results pushed, or QUARRY_RAISE / QUARRY_RERAISE.
typedef int (*quarry_dispatcher)(lua_State *L, void *context);

/// Installs the Swift dispatcher that every trampolined function calls.
void quarry_set_dispatcher(quarry_dispatcher dispatcher);

/// Pushes a Lua C closure that calls the dispatcher with `context`.
void quarry_push_swift_function(lua_State *L, void *context);

/// Creates a state whose allocator refuses to grow the heap beyond `limit` bytes
/// (0: no limit) while Lua code runs under quarry_pcall. While Swift runs (inside the
/// trampoline, or outside any call) it never refuses, so a memory error cannot longjmp
/// across Swift frames.
lua_State *quarry_newstate(size_t limit);
/// Closes a state made by quarry_newstate.
void quarry_close(lua_State *L);
/// The Lua prelude compiled by scripts/prelude-bytecode (prelude_bytecode.c), and the
/// hash of the text it was compiled from; NULL when it was compiled by another Lua release.
const unsigned char *quarry_prelude_bytecode(size_t *size, uint64_t *source_hash);
/// The bytes the heap may still grow by under the limit (SIZE_MAX: no limit), so Swift
/// can refuse up front to build a value that could not fit.
size_t quarry_memory_room(lua_State *L);
/// The limit in bytes (0: none).
size_t quarry_memory_limit(lua_State *L);
/// Notes that a userdata made in this call holds `bytes` of Swift memory the collector
/// cannot see: the trampoline pays for them in collector steps when the call returns.
void quarry_note_outside_bytes(lua_State *L, size_t bytes);

/// lua_pcall with a message handler that records a traceback in the registry field
/// "quarry.traceback" and keeps the message itself as the error value.
int quarry_pcall(lua_State *L, int nargs, int nresults);
/// The traceback recorded by the last failed quarry_pcall (may be NULL).
const char *quarry_last_traceback(lua_State *L);

/// Clears the interrupt and the deadline (after the top-level call has returned).
void quarry_clear_hooks(lua_State *L);
/// Sets the hook that checks for interrupts, the deadline and the memory limit on `L`
/// when one of them needs checking from inside Lua, and removes it otherwise (a count
/// hook slows every Lua instruction); an interrupt sets it from the SIGINT handler.
void quarry_install_guard(lua_State *L);
/// Makes `L` the state a SIGINT interrupts (it returns 0, changing nothing, when another
/// state already is: the first statement of several runtimes in one process keeps it).
int quarry_guard_statement(lua_State *L);
/// `L` is no longer the state a SIGINT interrupts.
void quarry_end_guarded_statement(lua_State *L);
/// Replaces `coroutine.create` with one that gives each new thread the coarse guard,
/// which the SIGINT handler cannot set on a thread it does not know is running.
void quarry_guard_coroutines(lua_State *L);
/// Sets the deadline: Lua code raises "timeout: ..." once `seconds` have passed, until
/// quarry_clear_hooks; two seconds later a hard stop ends the process (0: none).
void quarry_set_deadline(lua_State *L, double seconds);

/// Holds the collector off if it runs (returning 1), for Swift code that walks tables
/// while it is outside any Lua call; quarry_gc_resume gives the hold back, and may run a
/// collector step then (see gc_hold in shim.c).
int quarry_gc_pause(lua_State *L);
void quarry_gc_resume(lua_State *L, int paused);

/// Loads a file as `lua` does: a leading '#' line (shebang) is skipped.
int quarry_loadfile(lua_State *L, const char *path, const char *mode);

// Rows read as cells (see quarry_rows.h), answered in C: a loop over fetched objects
// reading attributes then never enters Swift for a row that has no object yet.

/// Attributes C can find by their interned name (past these, a table lookup).
#define QUARRY_FAST_FIELDS 32

/// The bytes of a batch's userdata. Its one user value is a table from attribute name
/// to a field code: `attribute << 16 | column << 3 | QUARRY_FIELD_...` (the attribute's
/// index in its entity, the cell in the row that holds it, and how to read it).
typedef struct {
    uint64_t cookie;
    /// The retained RowBatch that owns the cells and bytes.
    uintptr_t payload;
    const quarry_cell *cells;
    const unsigned char *bytes;
    int64_t rows;
    int64_t columns;
    /// quarry_epoch() when read: once it moves, the cells may be stale and Swift answers.
    uint64_t epoch;
    /// Bit i is set when attribute i (< 64) is read, so later batches read that column.
    uint64_t *attributes_read;
    /// Where the state's current epoch is (quarry_epoch_address), read without a call.
    const uint64_t *current_epoch;
    /// The first field names as Lua interned them (`lua_topointer` of the keys of the user
    /// value table, which keeps them alive), with their codes: a short string key is the
    /// same object.
    int64_t fast_count;
    const void *fast_names[QUARRY_FAST_FIELDS];
    int64_t fast_codes[QUARRY_FAST_FIELDS];
} quarry_rows_block;

/// The bytes of an object's userdata. Its first user value is the batch (a rows
/// userdata) it was read in, if any; a row's second, once it is made an object, the
/// keeper that holds the object.
typedef struct {
    uint64_t cookie;
    /// The retained ManagedObject, 0 while the object is still only a row of its batch,
    /// or 1 while its keeper holds it.
    uintptr_t payload;
    /// Its row in the batch, and that row's key.
    int64_t row;
    int64_t key;
    /// The batch's block: believed only while it is the object's user value.
    const quarry_rows_block *batch;
} quarry_object_block;

/// The bytes of a results userdata. Its one user value is the table of the objects of
/// the batch read last (t[1...count]), while `epoch` is current.
typedef struct {
    uint64_t cookie;
    /// The retained handle of the FetchResults.
    uintptr_t payload;
    /// quarry_results_epoch() when cached; quarry_epoch() where `saved_rows`.
    uint64_t epoch;
    /// The 1-based index of t[1], and how many objects t holds (0: none cached).
    int64_t first;
    int64_t count;
    /// 1 for a walk over the saved rows as they were when it began (Swift's
    /// `FetchResults.walksSavedRows`): an unsaved change to an object's values leaves the
    /// objects it walks as they are, so its cache stands until quarry_epoch() moves.
    int64_t saved_rows;
} quarry_results_block;

/// How an attribute's cells become Lua values, as Swift would make them (its type's
/// decoding, then the push of the value): see push_cell in shim.c.
enum {
    /// JSON: text is parsed into a table by Swift.
    QUARRY_FIELD_JSON = 0,
    QUARRY_FIELD_INTEGER = 1,
    QUARRY_FIELD_DOUBLE = 2,
    /// Strings, UUIDs and binary: a Lua string.
    QUARRY_FIELD_STRING = 3,
    QUARRY_FIELD_BOOL = 4,
    /// Numbers are seconds since 1970; text (ISO 8601) is parsed by Swift.
    QUARRY_FIELD_DATE = 5,
    /// Decimals: a number is read by Swift as the decimal it is (its shortest text).
    QUARRY_FIELD_DECIMAL = 6,
    /// A date of a column of days (PostgreSQL's `date`): as a date, with the metatable
    /// of days, which prints its day.
    QUARRY_FIELD_DAY = 7,
};

/// Moves whenever the store's objects may have changed (a save, an insert, a delete, a
/// link, a refresh): every batch read before then is answered by Swift again, and every
/// results' cache. It moves quarry_results_epoch() too.
void quarry_bump_epoch(lua_State *L);
uint64_t quarry_epoch(lua_State *L);
/// Where the state keeps its epoch (for as long as the state lives).
const uint64_t *quarry_epoch_address(lua_State *L);
/// Moves when an unsaved change touched one saved object's values alone, whose row Swift
/// has made that object (its cells are no longer read): the results' caches go (what
/// results hold may change with the values), the other rows' cells stay current.
void quarry_bump_results_epoch(lua_State *L);
uint64_t quarry_results_epoch(lua_State *L);
/* How many times a userdata was made for a row while another was recorded for it (a row
   whose object was made, fetched again), or a recorded one was replaced: while none was,
   each row has at most one userdata, and a change made through the one holding its
   object leaves no other to adopt it (`objectValuesChanged`). */
uint64_t quarry_row_twins(lua_State *L);
void quarry_note_row_twin(lua_State *L);

/// The cookies (see Userdata.swift) the C functions below check blocks by, or write.
/// Sections have results' blocks (their `first` counts within the section).
void quarry_set_cookies(uint64_t object, uint64_t results, uint64_t section, uint64_t date);
/// Pops the metatable of dates, for the dates C pushes.
void quarry_set_date_metatable(lua_State *L);
/// Pops the metatable of dates read from a column of days, for the days C pushes.
void quarry_set_day_metatable(lua_State *L);

/// Replaces the function on top of the stack (the bound Swift `__index` of objects)
/// with a C `__index` that reads an unmade object's attribute from its batch's cells,
/// and calls the Swift one for anything else.
void quarry_wrap_object_index(lua_State *L);
/// The same for results and sections: `r[i]` from the cached objects (see
/// quarry_results_block).
void quarry_wrap_results_index(lua_State *L);
/// The address that keys registry slot `slot` (0 ..< QUARRY_REGISTRY_SLOTS) for
/// `lua_rawgetp`: the entries read on every push of an object or lookup of a method,
/// which a name made Lua hash at each read.
#define QUARRY_REGISTRY_SLOTS 64
void *quarry_registry_slot(int slot);
/// Replaces the function on top of the stack (a bound Swift `__index`) with a C
/// `__index` that answers a string key from the table in registry slot `methods` (a
/// kind's methods, which the Swift one makes at its first call) and calls the Swift one
/// for anything else.
void quarry_wrap_method_index(lua_State *L, int methods);
/// Replaces the global `ipairs` with one that behaves the same for every value, and for
/// results and sections takes the cached objects without calling `__index` per row. A
/// value whose metatable has `__quarry_snapshot` (a to-many set) is iterated as the table
/// that function returns for it.
void quarry_install_ipairs(lua_State *L);

/// Rows' identities (the one userdata of each stored row, see RowObjects.swift) are kept
/// in two weak places per entity: `identities`, a table by key, and `chunks`, a table by
/// `key >> QUARRY_CHUNK_BITS` of tables with an array of 2^QUARRY_CHUNK_BITS slots
/// (slot `(key & (2^bits - 1)) + 1`). A batch whose keys rise without many gaps (a walk in
/// key order) records its rows in chunks: array slots, with no hashing or rehashing per row
/// as a table by key costs; the batch's field table holds its chunks, so a chunk lives
/// while any row read in it does. Everything else is recorded in `identities`.
#define QUARRY_CHUNK_BITS 9

/// Pushes the userdata recorded for `key` (its chunk first, then `identities`), or nil;
/// returns its Lua type.
int quarry_find_row(lua_State *L, int identities, int chunks, lua_Integer key);

/// Sets t[1...count] of the table at `objects` to the userdata of rows `from..<from+count`
/// of a batch (the rows userdata at `rows`), `keys` the batch's keys: the one already
/// recorded for its key (see above) when it is still only a row, which then reads from
/// this batch, else a new one with the metatable at `metatable`. Either is recorded where
/// this batch keeps it (a new chunk gets the weak metatable at `weak`). Rows whose `skip`
/// is set are left for Swift: they have objects. In C because it runs for every row read.
void quarry_fill_batch_objects(lua_State *L, int objects, int rows, int identities, int chunks, int weak, int metatable,
                               const int64_t *keys, const unsigned char *skip, int64_t from, int64_t count);

// Lua's macros, as functions Swift can call.
static inline void quarry_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void quarry_newtable(lua_State *L) { lua_newtable(L); }
static inline const char *quarry_tostring(lua_State *L, int i) { return lua_tolstring(L, i, NULL); }
static inline int quarry_isnoneornil(lua_State *L, int i) { return lua_type(L, i) <= 0; }
static inline int quarry_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int quarry_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void *quarry_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 1); }
static inline void quarry_insert(lua_State *L, int i) { lua_insert(L, i); }
static inline void quarry_remove(lua_State *L, int i) { lua_remove(L, i); }
static inline void quarry_replace(lua_State *L, int i) { lua_replace(L, i); }
static inline int quarry_isinteger(lua_State *L, int i) { return lua_isinteger(L, i); }
static inline lua_Integer quarry_tointeger(lua_State *L, int i, int *isnum) { return lua_tointegerx(L, i, isnum); }
static inline lua_Number quarry_tonumber(lua_State *L, int i, int *isnum) { return lua_tonumberx(L, i, isnum); }
static inline void quarry_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }

#endif
