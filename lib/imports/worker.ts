import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Database } from "../db/database.ts";
import { IMPORT_LIMITS } from "./limits.ts";
import { inTransaction } from "../db/work.ts";
import { importFilePath, runImport } from "./job.ts";
import { announce, type ImportRuntime } from "./progress.ts";
import { claimImport, failImport, releaseImportLeases, renewImportLeases, type ImportRow } from "./store.ts";
import { removeImportFile } from "./sheet-rows.ts";

// The import worker of a process that runs background work (the server with WORKER_IN_PROCESS,
// or `npm run worker`). The imports table is its queue, as the cells table is the embedded cell
// queue's: claims are leased, so on PostgreSQL any worker takes the next import, and an import
// whose worker died is taken up again once its lease runs out (at once, on a database this
// process owns alone). One import at a time per process: an import is bound by the database.

export interface ImportWorkerRuntime extends ImportRuntime {
  db: Pick<Database, "prisma" | "exclusive">;
  bus: ImportRuntime["bus"];
  services: { name: string; stop: () => Promise<void> }[];
}

export interface ImportWorkerOptions {
  pollMs?: number;
  leaseMs?: number;
}

export async function startImportWorker(
  rt: ImportWorkerRuntime,
  opts: ImportWorkerOptions = {},
): Promise<{ stop: () => Promise<void> }> {
  const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const leaseMs = opts.leaseMs ?? IMPORT_LIMITS.leaseMs;
  const prisma = rt.db.prisma;
  if (rt.db.exclusive) await releaseImportLeases(prisma);
  let stopped = false;
  let current: string | null = null;
  let running: Promise<void> | undefined;

  const tick = () => {
    if (stopped || running) return;
    running = (async () => {
      try {
        for (
          let job = await claimImport(prisma, owner, leaseMs);
          job && !stopped;
          job = await claimImport(prisma, owner, leaseMs)
        ) {
          current = job.id;
          if (job.attempts > IMPORT_LIMITS.maxAttempts) {
            await runImportGivenUp(rt, job, owner);
          } else await runImport(rt, job, owner, () => stopped);
          current = null;
        }
      } catch (e) {
        if (!stopped) console.error("[cellwright] the import worker failed:", e);
      } finally {
        current = null;
        running = undefined;
      }
    })();
  };
  const poll = setInterval(tick, opts.pollMs ?? 1_000);
  const heartbeat = setInterval(
    () => {
      if (current) void renewImportLeases(prisma, owner, [current], leaseMs).catch(() => undefined);
    },
    Math.max(250, leaseMs / 3),
  );
  const unsubscribe = rt.bus.on((e) => {
    if (e.type === "import.updated" && e.status === "queued") tick();
  });
  tick();

  const stop = async () => {
    stopped = true;
    clearInterval(poll);
    clearInterval(heartbeat);
    unsubscribe();
    await running;
    // Stopped between two batches: the next worker (or this one, restarted) continues at once.
    await prisma.importJob
      .updateMany({ where: { leaseOwner: owner, status: { in: ["queued", "running"] } }, data: { leaseUntil: null } })
      .catch(() => undefined);
  };
  rt.services.push({ name: "import worker", stop });
  return { stop };
}

/** An import whose workers kept dying on it fails rather than being retried for ever. */
async function runImportGivenUp(rt: ImportWorkerRuntime, job: ImportRow, owner: string) {
  await inTransaction(rt, async (w) => {
    const row = await failImport(w.tx, job.id, owner, {
      line: 0,
      column: null,
      code: "internal_error",
      message: `The import was interrupted ${IMPORT_LIMITS.maxAttempts} times; it stopped.`,
    });
    if (row) announce(w, row);
  });
  await removeImportFile(importFilePath(rt.config, job.storagePath));
}
