-- HTTP columns: calls in flight per host, shared by every worker process, and answers reused by
-- the resolved request they answered.
CREATE TABLE "host_slots" (
    "host" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    CONSTRAINT "host_slots_pkey" PRIMARY KEY ("host", "slot")
);

CREATE TABLE "http_cache" (
    "key" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "body" JSONB,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "http_cache_pkey" PRIMARY KEY ("key")
);

CREATE INDEX "http_cache_expires_at_idx" ON "http_cache"("expires_at");
