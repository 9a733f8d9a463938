-- A worker process short of a host's slots marks one held by a process holding more as wanted:
-- its holder frees it at the end of its call instead of handing it to a call of its own, and for
-- a moment only the wanting process may take it. Without this a busy process could keep a host.
ALTER TABLE "host_slots" ADD COLUMN "wanted_by" TEXT;
ALTER TABLE "host_slots" ADD COLUMN "wanted_until" TIMESTAMPTZ(6);
