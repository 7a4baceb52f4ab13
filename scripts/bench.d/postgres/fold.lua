-- Workload P5 (Quarry): a case- and diacritic-insensitive count, folded in the server's
-- SQL (PostgresFold), against a key path's text too.
local t0 = now()
local n = count("flights", "tailnum CONTAINS[cd] 'n1' OR airlines.name BEGINSWITH[c] 'UNITED'")
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
