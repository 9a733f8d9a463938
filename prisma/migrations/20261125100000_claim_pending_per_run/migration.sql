-- Each running run's ready cells, in due order: what the embedded queue's claim walks. With only the
-- (status, available_at) and (run_id, status, available_at) indexes, the planner walked the first
-- and filtered on the run, so that a run with few cells ready read past every other run's pending
-- cells: 110 ms a claim at 100,000 pending against 10 ms at 100 (bench:claim).
CREATE INDEX "cells_pending_run_available_at_idx" ON "cells" ("run_id", "available_at") WHERE "status" = 'pending';
