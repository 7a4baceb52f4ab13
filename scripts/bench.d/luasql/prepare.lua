-- Workload 7 (lua5.4 + LuaSQL): SQLite compiling the equivalent SQL. arg[1] is the
-- database, arg[2] "simple" or "complex", arg[3] the number of statements (default
-- 20000). Each statement is `SELECT 1 FROM Flight WHERE 0 AND (<clause>)`: prepared,
-- stepped once (no row), finalized. BENCH_TIME is the wall time per statement (read
-- from SQLite, as in loop.lua), `BENCH_FIGURE cpu` the CPU time per statement. stdout:
-- the number of rows the clause matches, counted once outside the timing.
local env = require("luasql.sqlite3").sqlite3()
local con = env:connect(arg[1])
local which, n = arg[2] or "simple", tonumber(arg[3] or "20000")
-- The SQL Quarry compiles (explain(r) shows it), with the arguments inline. Quarry's
-- string operators call its own SQL function; SQLite's nearest is LIKE (case-insensitive
-- for ASCII), which gives the same rows on this data.
local clauses = {
  simple = [[("Flight"."dest" IS 'LAX') AND ("Flight"."dep_delay" > 30) AND ("Flight"."carrier" IN ('UA', 'AA'))]],
  complex = [[(("Flight"."dest" LIKE 'la%') OR ("Flight"."origin" LIKE '%GA')) AND (NOT ("Flight"."carrier" IN ('UA', 'AA'))) ]]
    .. [[AND ("Flight"."distance" BETWEEN 500 AND 2000) AND ("Flight"."tailnum" LIKE '%n5%')]],
}
local clause = clauses[which]
local function clock()
  local c = con:execute("SELECT (julianday('now') - 2440587.5) * 86400.0")
  local t = c:fetch()
  c:close()
  return t
end
local sql = "SELECT 1 FROM Flight WHERE 0 AND (" .. clause .. ")"
for _ = 1, 200 do con:execute(sql):close() end   -- warm-up
local t0, c0 = clock(), os.clock()
for _ = 1, n do
  local cur = con:execute(sql)
  cur:close()
end
local t, cpu = clock() - t0, os.clock() - c0
local c = con:execute("SELECT count(*) FROM Flight WHERE " .. clause)
print(c:fetch())
c:close()
print(string.format("BENCH_FIGURE cpu %.9f", cpu / n))
io.stderr:write(string.format("BENCH_TIME %.9f\n", t / n))
con:close()
env:close()
