-- Workload 14b (Quarry): every one of 20,000 objects fetched, its text changed, and the
-- changes written in one save(), as a user writes it. The file holds `items` with 20,000
-- rows.
local t0 = now()
for _, o in ipairs(fetch("items")) do o.v = o.v .. "!" end
local saved = save()
local t = now() - t0
print(saved.updated)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
