-- Workload 9 (sqlite3): the same question with LIKE (ASCII case-insensitive; tailnums
-- are ASCII, so the same rows).
.timer on
SELECT count(*) FROM Flight WHERE tailnum LIKE '%n7%';
