-- Workload 8b (sqlite3): the same question as a JOIN, on Quarry's own file.
.timer on
SELECT count(*) FROM Flight JOIN Plane ON Plane.tailnum = Flight.tailnum WHERE Plane.manufacturer = 'BOEING';
