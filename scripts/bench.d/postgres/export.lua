-- Workload P6 (Quarry): export every row of arg[1] (a table) to arg[2] (CSV): through
-- fetch (arg[3] "fetch") or sql() (arg[3] "sql"), as a user writes either.
local t0 = now()
if arg[3] == "sql" then
  export(sql("SELECT * FROM " .. arg[1] .. " ORDER BY invoice_line_id"), arg[2])
else
  export(fetch(arg[1]), arg[2])
end
local t = now() - t0
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
