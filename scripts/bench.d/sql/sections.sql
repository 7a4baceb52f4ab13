-- Workload 4 (sqlite3): one row per section (month) with its size.
.timer on
SELECT month, count(*) FROM Flight WHERE carrier = 'UA' GROUP BY month;
