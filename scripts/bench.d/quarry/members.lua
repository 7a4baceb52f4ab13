-- Workload 9d (Quarry): planes with fewer than 10 flights, in a file whose flights.tailnum
-- names planes(tailnum) with no index (as sqlite3 .import made it).
local t0 = now()
local n = count("planes", "flights.@count < 10")
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
