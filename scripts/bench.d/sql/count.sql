-- Workload 2 (sqlite3): count with a filter.
.timer on
SELECT count(*) FROM Flight WHERE dest = 'LAX' AND month = 1;
