-- Workload 1 (Quarry): import arg[1] (flights.csv) into a fresh store as entity Flight.
local t0 = now()
local n = import(arg[1], { entity = "Flight" })
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
