-- Workload P5 (psql): the same count with ILIKE, which folds ASCII as [cd] does.
\timing on
SELECT count(*) FROM flights LEFT JOIN airlines ON airlines.carrier = flights.carrier WHERE flights.tailnum ILIKE '%n1%' OR airlines.name ILIKE 'united%';
