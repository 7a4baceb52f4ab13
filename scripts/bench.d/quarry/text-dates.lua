-- Workload 9c (Quarry): flights before July, in a file whose dates are ISO text (made by
-- sqlite3's .import; time_hour declared a date by format() before the run).
local t0 = now()
local n = count("flights", "time_hour < %@", date("2013-07-01T00:00:00Z"))
local t = now() - t0
print(n)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
