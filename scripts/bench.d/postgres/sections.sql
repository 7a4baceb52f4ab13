-- Workload P3 (psql): one row per section (month) with its size.
\timing on
SELECT month, count(*) FROM flights WHERE carrier = 'UA' GROUP BY month;
