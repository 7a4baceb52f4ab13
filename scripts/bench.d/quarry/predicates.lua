-- Workload 7 (Quarry): the cost of parsing and compiling a predicate. arg[1] is
-- "simple" or "complex", arg[2] the number of predicates (default 20000). Each one is a
-- lazy fetch request: creating it parses the format string, binds it to Flight
-- (key paths resolved, arguments converted) and compiles it to SQL, without running
-- it. BENCH_TIME is the wall time per predicate; for information, `BENCH_FIGURE cpu` is
-- the CPU time per predicate (os.clock) and `BENCH_FIGURE parse` the wall time per
-- predicate of parsing alone (`predicate(format, args...)`, not bound to an entity).
-- stdout: the number of matching rows, counted once outside the timing, so the answer
-- can be compared with the peer's.
local which, n = arg[1] or "simple", tonumber(arg[2] or "20000")
local requests = {
  simple = { "dest == %@ AND dep_delay > %@ AND carrier IN %@", { "LAX", 30, { "UA", "AA" } } },
  complex = { "(dest BEGINSWITH[cd] %@ OR origin ENDSWITH[c] %@) AND NOT (carrier IN %@) "
      .. "AND %K BETWEEN %@ AND tailnum CONTAINS[cd] %@",
    { "la", "GA", { "UA", "AA" }, "distance", { 500, 2000 }, "n5" } },
}
local format, args = requests[which][1], requests[which][2]
local last
for _ = 1, 200 do last = fetch{ "Flight", predicate = format, args = args } end   -- warm-up
collectgarbage()
local t0, c0 = now(), os.clock()
for _ = 1, n do
  last = fetch{ "Flight", predicate = format, args = args }
end
local t, cpu = now() - t0, os.clock() - c0
t0 = now()
for _ = 1, n do predicate(format, table.unpack(args)) end
local parse = now() - t0
print(#last)
print(string.format("BENCH_FIGURE cpu %.9f", cpu / n))
print(string.format("BENCH_FIGURE parse %.9f", parse / n))
io.stderr:write(string.format("BENCH_TIME %.9f\n", t / n))
