-- Workload 5b (lua5.4 + LuaSQL): the same loop over every flight reading only the two
-- columns it adds up, for information (line 5 reads whole rows, loop-all.lua).
-- arg[1] is the database. Plain Lua has no wall clock finer than a second, so the
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
local cur = con:execute("SELECT dep_delay, distance FROM Flight")
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
