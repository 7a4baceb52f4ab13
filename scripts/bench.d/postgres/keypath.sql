-- Workload P2 (psql): the same count with the JOIN written by hand.
\timing on
SELECT count(*) FROM flights JOIN airlines ON airlines.carrier = flights.carrier WHERE airlines.name = 'United Air Lines Inc.';
