-- Workload P3 (Quarry): the number of sections of UA flights sectioned by month.
local t0 = now()
local n = #fetch{ "flights", section = "month", predicate = "carrier == 'UA'" }
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
