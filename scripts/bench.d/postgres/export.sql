-- Workload P6 (psql): \copy of the same rows, in the same order, to a CSV file with its
-- header. The bench sets :table and :out.
\timing on
\set copy_out '\\copy (SELECT * FROM ' :table ' ORDER BY invoice_line_id) TO ' :'out' ' WITH (FORMAT csv, HEADER)'
:copy_out
