-- Workload 5 (lua5.4 + LuaSQL): the same loop over every flight, run by lua5.4. arg[1] is
-- the database; arg[2] `*` reads each row whole (`select *`, line 5: a Quarry object holds
-- its whole row, issue 84); otherwise only the two columns the loop adds up are read
-- (line 5b, for information). Plain Lua has no wall clock finer than a second, so the
-- in-process time is read from SQLite (julianday('now'), millisecond resolution).
local env = require("luasql.sqlite3").sqlite3()
local con = env:connect(arg[1])
local function clock()
  local c = con:execute("SELECT (julianday('now') - 2440587.5) * 86400.0")
  local t = c:fetch()
  c:close()
  return t
end
local t0 = clock()
local s = 0
local columns = arg[2] == "*" and "*" or "dep_delay, distance"
local cur = con:execute("SELECT " .. columns .. " FROM Flight")
local row = cur:fetch({}, "a")
while row do
  s = s + (row.dep_delay or 0) + row.distance
  row = cur:fetch(row, "a")
end
cur:close()
local t = clock() - t0
print(s)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
con:close()
env:close()
