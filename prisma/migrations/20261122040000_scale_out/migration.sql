-- Scale-out: provider rate limits shared by every worker process. One row per bucket; a worker
-- takes a token with one atomic UPDATE of the row, so the limit holds across processes and
-- machines. The queue engine (pg-boss) installs and migrates its own schema, "pgboss".
CREATE TABLE "rate_limit_buckets" (
  "name" TEXT PRIMARY KEY,
  "tokens" DOUBLE PRECISION NOT NULL,
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
