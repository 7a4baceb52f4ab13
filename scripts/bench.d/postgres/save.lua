-- Workload P7 (Quarry): every January flight's arr_delay set from its dep_delay (0 when it
-- has none), in one save: the objects fetched, changed and saved, as a user writes it.
local t0 = now()
local all = fetch{ "flights", predicate = "month == 1" }
for _, f in ipairs(all) do f.arr_delay = f.dep_delay or 0 end
local saved = save()
local t = now() - t0
print(saved.updated)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
