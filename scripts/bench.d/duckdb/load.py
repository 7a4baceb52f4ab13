"""Workload 11's peer database: flights.csv in a DuckDB file (not timed).
Usage: python3 load.py FLIGHTS.CSV DB"""
import sys

import duckdb

csv, db = sys.argv[1], sys.argv[2]
with duckdb.connect(db) as con:
    # 'NA' is the file's missing value, as Quarry's import reads it.
    con.execute("CREATE TABLE Flight AS SELECT * FROM read_csv(?, header = true, nullstr = 'NA')", [csv])
    print(con.execute("SELECT count(*) FROM Flight").fetchone()[0])
