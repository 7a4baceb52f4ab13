-- Workload 8a (sqlite3): the same question as a JOIN, on Quarry's own file.
.timer on
SELECT count(*) FROM Flight JOIN Airport ON Airport.faa = Flight.dest WHERE Airport.tzone = 'America/New_York';
