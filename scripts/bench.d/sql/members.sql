-- Workload 9d (sqlite3): the same question as a person writes it in SQL, grouped once.
.timer on
SELECT count(*) FROM planes WHERE tailnum NOT IN (SELECT tailnum FROM flights WHERE tailnum IS NOT NULL GROUP BY tailnum HAVING count(*) >= 10);
