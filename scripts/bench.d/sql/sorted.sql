-- Workload 3 (sqlite3): the same 100 rows in the same order (Quarry breaks ties on the
-- primary key in the direction of the last sort key).
.timer on
SELECT dep_delay, distance FROM Flight WHERE dest = 'LAX' ORDER BY dep_delay DESC, _pk DESC LIMIT 100;
