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

/// lua_pcall with a message handler that records a traceback in the registry field
/// "quarry.traceback" and keeps the message itself as the error value.
int quarry_pcall(lua_State *L, int nargs, int nresults);
/// The traceback recorded by the last failed quarry_pcall (may be NULL).
const char *quarry_last_traceback(lua_State *L);

/// Clears the interrupt and the deadline (after the top-level call has returned).
void quarry_clear_hooks(lua_State *L);
/// Installs the permanent hook that checks for interrupts and the deadline.
void quarry_install_guard(lua_State *L);
/// Sets the deadline: Lua code raises "timeout: ..." once `seconds` have passed, until
/// quarry_clear_hooks; two seconds later a hard stop ends the process (0: none).
void quarry_set_deadline(lua_State *L, double seconds);

/// Loads a file as `lua` does: a leading '#' line (shebang) is skipped.
int quarry_loadfile(lua_State *L, const char *path);

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
