-- Workload 2 (Quarry): count with a filter, in SQLite.
local t0 = now()
local n = count("Flight", "dest == 'LAX' AND month == 1")
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
