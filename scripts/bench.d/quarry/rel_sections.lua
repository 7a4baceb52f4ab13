-- Workload 8c (Quarry): flights sectioned by their airline's name, through `airline`;
-- each section's name and size are read.
local t0 = now()
local sections = fetch{ "Flight", section = "airline.name" }
local n, total = 0, 0
for _, s in ipairs(sections) do n = n + 1; total = total + #s end
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
