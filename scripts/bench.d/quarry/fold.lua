-- Workload 9a (Quarry): a case-insensitive substring test on every flight's tailnum.
-- arg[1] is the operator's options ("c" or "cd").
local t0 = now()
local n = count("Flight", "tailnum CONTAINS[" .. (arg[1] or "c") .. "] %@", "n7")
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
