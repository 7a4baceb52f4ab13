-- Workload P10 (psql): every January flight printed as an aligned table.
SELECT * FROM flights WHERE month = 1 ORDER BY id;
