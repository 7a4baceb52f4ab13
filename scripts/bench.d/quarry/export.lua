-- Workload 10 (Quarry): every flight written to arg[1] (.csv or .json), as export() does.
local t0 = now()
export(fetch("Flight"), arg[1])
local t = now() - t0
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
