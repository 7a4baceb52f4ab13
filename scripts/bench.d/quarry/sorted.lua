-- Workload 3 (Quarry): the 100 LAX flights with the longest departure delay, walked in
-- order reading two attributes; each row is formatted as the sqlite3 shell prints it.
local t0 = now()
local lines = {}
for _, f in ipairs(fetch{ "Flight", predicate = "dest == 'LAX'", sort = { "-dep_delay" }, limit = 100 }) do
  lines[#lines + 1] = tostring(f.dep_delay) .. "|" .. tostring(f.distance)
end
local t = now() - t0
print(table.concat(lines, "\n"))
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
