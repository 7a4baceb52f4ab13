-- Workload P4 (Quarry): import arg[1] (flights.csv) into the emptied flights table (COPY).
local t0 = now()
local n = import(arg[1], { entity = "flights" })
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
