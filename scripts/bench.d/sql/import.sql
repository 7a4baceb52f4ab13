-- Workload 1 (sqlite3): .import into a fresh database (the table is created from the
-- header, every column TEXT). The shell's .timer does not time dot-commands, so the
-- in-process time is taken from two marks around .import (millisecond clock).
SELECT printf('BENCH_T0 %.3f', (julianday('now') - 2440587.5) * 86400.0);
.import --csv "@CSV@" Flight
SELECT printf('BENCH_T1 %.3f', (julianday('now') - 2440587.5) * 86400.0);
