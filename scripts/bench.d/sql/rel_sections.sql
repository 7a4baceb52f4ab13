-- Workload 8c (sqlite3): one row per airline name with its number of flights (a flight
-- whose carrier names no airline would be the nil section: LEFT JOIN).
.timer on
SELECT Airline.name, count(*) FROM Flight LEFT JOIN Airline ON Airline.carrier = Flight.carrier GROUP BY Airline.name;
