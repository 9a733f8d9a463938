-- rows and cells are rewritten whole by Update Rows, imports that merge and reruns, so a tenth of
-- either can die between two of autovacuum's once-a-minute wake-ups. At PostgreSQL's defaults (a
-- table vacuumed once a fifth of it is dead, throttled to 200 cost units per 2 ms) a 100,000-row
-- base updated whole every 25 s grew to 1.70× its size after the first round (bench:storage): the
-- vacuum started late and ran slowly. These tables start theirs at a twentieth and may do five
-- times the work before pausing. The embedded database ignores them: it vacuums itself
-- (embedded-maintenance.ts).
ALTER TABLE "rows" SET (
  autovacuum_vacuum_scale_factor = 0.05,
  autovacuum_analyze_scale_factor = 0.05,
  autovacuum_vacuum_cost_limit = 1000
);
ALTER TABLE "cells" SET (
  autovacuum_vacuum_scale_factor = 0.05,
  autovacuum_analyze_scale_factor = 0.05,
  autovacuum_vacuum_cost_limit = 1000
);
