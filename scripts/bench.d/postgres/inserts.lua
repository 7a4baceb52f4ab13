-- Workload P8 (Quarry): 20,000 new objects made and written in one save(), as a user
-- writes it (issue 62), into the empty table `items` (id bigserial, v text).
local t0 = now()
for i = 1, 20000 do items:new{ v = "x" .. i } end
local saved = save()
local t = now() - t0
print(saved.inserted)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
