-- Workload P1 (psql): count with a filter.
\timing on
SELECT count(*) FROM flights WHERE dest = 'LAX' AND month = 1;
