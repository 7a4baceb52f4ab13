-- Workload 0 (Quarry): no work; the process time is Quarry's start-up and shut-down.
io.stderr:write("BENCH_TIME 0\n")
