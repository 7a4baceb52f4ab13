-- Workload P4 (psql): \copy of the same file into the emptied flights table. The bench
-- sets :csv to its path.
\timing on
\set copy_flights '\\copy flights (year, month, day, dep_time, sched_dep_time, dep_delay, arr_time, sched_arr_time, arr_delay, carrier, flight, tailnum, origin, dest, air_time, distance, hour, minute, time_hour) FROM ' :'csv' ' WITH (FORMAT csv, HEADER, NULL ''NA'')'
:copy_flights
