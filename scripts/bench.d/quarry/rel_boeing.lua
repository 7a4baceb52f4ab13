-- Workload 8b (Quarry): flights flown by a Boeing, through `plane`.
local t0 = now()
local n = count("Flight", "plane.manufacturer == %@", "BOEING")
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
