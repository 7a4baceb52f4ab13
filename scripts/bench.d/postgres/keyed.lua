-- Workload P9 (Quarry): the airlines with a flight on an EMBRAER plane, on nycflights13
-- loaded with its keys (schema keyed): a to-one step through planes' text key under ANY.
relate("flights", "tailnum", "planes", "tailnum")
local t0 = now()
local names = {}
for _, a in ipairs(fetch{ "airlines", predicate = "ANY flights.plane.manufacturer == %@", args = { "EMBRAER" }, sort = { "carrier" } }) do
  names[#names + 1] = a.carrier
end
local t = now() - t0
print(table.concat(names, ","))
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
