-- Workload 13 (Quarry): 3,000 counts of a table in a file that also has 600 views whose
-- names hold spaces (each statement once searched its SQL for every view's name).
local t0 = now()
local n = {}
for i = 1, 3000 do n[i] = count("other") end
local t = now() - t0
print(table.concat(n, "\n"))
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
