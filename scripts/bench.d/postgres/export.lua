-- Workload P6 (Quarry): export every row of arg[1] (a table) to arg[2] (CSV): through
-- fetch (arg[3] "fetch"), a query streamed (arg[3] "query": export({ sql = ... })) or
-- sql() read whole (arg[3] "sql"), as a user writes each.
local t0 = now()
local query = "SELECT * FROM " .. arg[1] .. " ORDER BY invoice_line_id"
if arg[3] == "sql" then
  export(sql(query), arg[2])
elseif arg[3] == "query" then
  export({ sql = query }, arg[2])
else
  export(fetch(arg[1]), arg[2])
end
local t = now() - t0
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
