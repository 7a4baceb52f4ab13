-- Workload 11 (Quarry): summarize every attribute of Flight (DuckDB's SUMMARIZE is the peer).
local t0 = now()
local s = summarize("Flight")
local t = now() - t0
-- What both sides compute exactly: columns, rows, and dep_delay's min, max and mean.
local delay
for _, row in ipairs(s) do if row.column == "dep_delay" then delay = row end end
print(string.format("%d %d %d %d %.6f", #s, s[1].count + s[1].nulls, delay.min, delay.max, delay.mean))
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
