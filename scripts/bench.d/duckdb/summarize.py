"""Workload 11 (DuckDB): SUMMARIZE Flight on the database load.py made. The query is
timed alone (BENCH_TIME), from before it is sent until every row of its answer is read.
Usage: python3 summarize.py DB"""
import sys
import time

import duckdb

with duckdb.connect(sys.argv[1], read_only=True) as con:
    t0 = time.perf_counter()
    cursor = con.execute("SUMMARIZE Flight")
    rows = cursor.fetchall()
    t = time.perf_counter() - t0
    names = [d[0] for d in cursor.description]
    delay = dict(zip(names, next(r for r in rows if r[0] == "dep_delay")))
    print("%d %d %d %d %.6f" % (len(rows), delay["count"], int(delay["min"]), int(delay["max"]), float(delay["avg"])))
    print("BENCH_TIME %.6f" % t, file=sys.stderr)
