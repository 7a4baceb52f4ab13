-- Workload 8a (Quarry): flights to an airport in a time zone, through `destination`.
local t0 = now()
local n = count("Flight", "destination.tzone == %@", "America/New_York")
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
