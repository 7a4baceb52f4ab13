-- Workload 10c (Quarry): every flight's 19 columns (arg[2], as the sqlite3 side names
-- them) written to arg[1] as CSV through a query, export({ sql = ... }), streamed.
local t0 = now()
export({ sql = "SELECT " .. arg[2] .. " FROM Flight" }, arg[1])
local t = now() - t0
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
