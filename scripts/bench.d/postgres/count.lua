-- Workload P1 (Quarry): count with a filter, on the server.
local t0 = now()
local n = count("flights", "dest == 'LAX' AND month == 1")
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
