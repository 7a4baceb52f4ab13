-- Workload 9c (sqlite3): the same question through SQLite's own reading of the text.
.timer on
SELECT count(*) FROM flights WHERE julianday(time_hour) < julianday('2013-07-01T00:00:00Z');
