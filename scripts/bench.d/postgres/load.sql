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
-- Workload P6's tables: Chinook's invoice_line (its columns and types, 2,242 rows of the
-- same shape: prices 0.99 and 1.99, quantity 1), and the same rows 100 times (224,200).
CREATE TABLE invoice_line (invoice_line_id int PRIMARY KEY, invoice_id int NOT NULL, track_id int NOT NULL,
  unit_price numeric(10,2) NOT NULL, quantity int NOT NULL);
INSERT INTO invoice_line SELECT i, (i - 1) / 5 + 1, (i * 37) % 3503 + 1, CASE WHEN i % 7 = 0 THEN 1.99 ELSE 0.99 END, 1
  FROM generate_series(1, 2242) i;
CREATE TABLE invoice_line_x100 (invoice_line_id int PRIMARY KEY, invoice_id int NOT NULL, track_id int NOT NULL,
  unit_price numeric(10,2) NOT NULL, quantity int NOT NULL);
INSERT INTO invoice_line_x100 SELECT k * 2242 + invoice_line_id, invoice_id, track_id, unit_price, quantity
  FROM invoice_line, generate_series(0, 99) k;
ANALYZE;
-- Workload P9's schema: nycflights13 as a psql user loads it with its keys (issue 86):
-- airlines and planes keyed by their text codes, the flights a copy of the ones above
-- with their carrier a foreign key; their tailnums stay a column (some name no plane),
-- which the workload relates to planes.
CREATE SCHEMA keyed;
CREATE TABLE keyed.airlines (carrier text PRIMARY KEY, name text);
INSERT INTO keyed.airlines SELECT carrier, name FROM public.airlines;
CREATE TABLE keyed.planes (tailnum text PRIMARY KEY, year int, type text, manufacturer text, model text, engines int,
  seats int, speed int, engine text);
\set copy_planes '\\copy keyed.planes FROM ' :'planes' ' WITH (FORMAT csv, HEADER, NULL ''NA'')'
:copy_planes
CREATE TABLE keyed.flights AS SELECT * FROM public.flights;
ALTER TABLE keyed.flights ADD PRIMARY KEY (id), ADD FOREIGN KEY (carrier) REFERENCES keyed.airlines (carrier);
ANALYZE;
