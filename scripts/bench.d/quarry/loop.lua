-- Workload 5 (Quarry): a Lua loop over every flight reading two attributes.
local t0 = now()
local s = 0 for _, f in ipairs(fetch("Flight")) do s = s + (f.dep_delay or 0) + f.distance end
local t = now() - t0
print(s)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
