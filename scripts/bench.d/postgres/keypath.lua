-- Workload P2 (Quarry): count through the foreign key to airlines (a key path).
local t0 = now()
local n = count("flights", "airlines.name == 'United Air Lines Inc.'")
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
