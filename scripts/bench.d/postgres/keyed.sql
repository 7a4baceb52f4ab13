-- Workload P9 (psql): the same airlines with the join written by hand.
\timing on
SELECT string_agg(carrier, ',' ORDER BY carrier) FROM keyed.airlines a
WHERE EXISTS (SELECT 1 FROM keyed.flights f JOIN keyed.planes p USING (tailnum) WHERE f.carrier = a.carrier AND p.manufacturer = 'EMBRAER');
