-- Workload 15 (Quarry): diff of the session's store (opened --readonly) with arg[1], a
-- copy with 100 flights changed; prints the number of changes.
local b = open(arg[1], { readonly = true })
local t0 = now()
local d = diff(b)
local t = now() - t0
print(#d)
io.stderr:write(string.format("BENCH_TIME %.6f\n", t))
