-- Workload 10 (sqlite3): the same rows and columns written to @OUT@ in mode @MODE@ (the
-- shell's -csv / -json output), headers on. .timer does not time the writing to the
-- file, so two julianday marks around it (ms).
SELECT printf('BENCH_T0 %.3f', (julianday('now') - 2440587.5) * 86400.0);
.headers on
.mode @MODE@
.output @OUT@
SELECT @COLUMNS@ FROM Flight;
.output stdout
.mode list
.headers off
SELECT printf('BENCH_T1 %.3f', (julianday('now') - 2440587.5) * 86400.0);
