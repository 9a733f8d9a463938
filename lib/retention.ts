import type { Runtime } from "./runtime.ts";
import type { Tx } from "./db/database.ts";
import { pruneCellAttempts } from "./domain/cells/index.ts";
import { pruneWebhookMessages } from "./webhooks/retention.ts";
import { pruneSearchCache } from "./engine/search-cache.ts";
import { pruneHttpCache } from "./engine/http/cache.ts";
import { pruneAuditEntries } from "./audit/index.ts";
import { pruneHistory } from "./domain/history/index.ts";

// Retention: records that only grow are pruned on a schedule, in every process that runs the
// background work, one process at a time. Each batch is its own short transaction that first
// takes a transaction-scoped advisory lock: a process that does not get it leaves the pass to the
// one that did. Chat history needs no pruning here: it is deleted with its base (foreign key).

const RETENTION_LOCK = 727_277;
/** Rows deleted per statement, and batches per table and pass: a pass never holds locks for long. */
export const PRUNE_BATCH = 1_000;
const MAX_BATCHES = 200;
const DAY_MS = 86_400_000;

export interface PruneCounts {
  webhookMessages: number;
  webhookAttempts: number;
  cellAttempts: number;
  /** Expired answers of web search and of HTTP columns. */
  searchCache: number;
  /** Audit entries older than their workspace's audit_retention_days (null keeps them). */
  auditEntries: number;
  /** Cells whose history lost changes older than HISTORY_RETENTION_DAYS. */
  cellHistories: number;
  /** Another process held the lock: this pass pruned nothing. */
  skipped: boolean;
}

type Step = (tx: Tx) => Promise<number>;

/** Runs `step` in locked batches until it deletes less than a batch; null when the lock is taken. */
async function inBatches(rt: Runtime, step: Step): Promise<number | null> {
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    const n = await rt.db.prisma.$transaction(async (tx) => {
      const [{ locked }] = await tx.$queryRawUnsafe<{ locked: boolean }[]>(
        `SELECT pg_try_advisory_xact_lock(${RETENTION_LOCK}) AS locked`,
      );
      return locked ? step(tx) : null;
    });
    if (n === null) return i === 0 ? null : total;
    total += n;
    if (n < PRUNE_BATCH) break;
    // Let requests in between batches (on the embedded database they share this thread).
    await new Promise((r) => setImmediate(r));
  }
  return total;
}

/** One pass over every table with a retention period (RETENTION_* settings; 0 keeps forever). */
export async function pruneOnce(rt: Runtime, now = new Date()): Promise<PruneCounts> {
  const { webhookDays, cellAttemptDays, historyDays } = rt.config.retention;
  const counts: PruneCounts = {
    webhookMessages: 0,
    webhookAttempts: 0,
    cellAttempts: 0,
    searchCache: 0,
    auditEntries: 0,
    cellHistories: 0,
    skipped: false,
  };
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const steps: [boolean, Step][] = [
    [
      webhookDays > 0,
      async (tx) => {
        const r = await pruneWebhookMessages(tx, ago(webhookDays), PRUNE_BATCH);
        counts.webhookAttempts += r.attempts;
        counts.webhookMessages += r.messages;
        return r.messages;
      },
    ],
    [
      cellAttemptDays > 0,
      async (tx) => {
        const n = await pruneCellAttempts(tx, ago(cellAttemptDays), PRUNE_BATCH);
        counts.cellAttempts += n;
        return n;
      },
    ],
    [
      historyDays > 0,
      async (tx) => {
        const n = await pruneHistory(tx, ago(historyDays), PRUNE_BATCH);
        counts.cellHistories += n;
        return n;
      },
    ],
    [
      true,
      async (tx) => {
        const n = (await pruneSearchCache(tx, now, PRUNE_BATCH)) + (await pruneHttpCache(tx, now, PRUNE_BATCH));
        counts.searchCache += n;
        return n;
      },
    ],
    [
      true,
      async (tx) => {
        const n = await pruneAuditEntries(tx, now, PRUNE_BATCH);
        counts.auditEntries += n;
        return n;
      },
    ],
  ];
  for (const [enabled, step] of steps) {
    if (!enabled) continue;
    if ((await inBatches(rt, step)) === null) return { ...counts, skipped: true };
  }
  return counts;
}

/** Prunes every RETENTION_INTERVAL_MINUTES (first pass a minute after start); stopped with the runtime. */
export function startRetention(rt: Runtime): void {
  const every = rt.config.retention.intervalMs;
  if (every <= 0) return;
  let running: Promise<unknown> | undefined;
  const run = () => {
    if (running) return;
    running = pruneOnce(rt)
      .then((c) => {
        const total = c.webhookMessages + c.cellAttempts + c.searchCache + c.auditEntries;
        if (total > 0)
          console.log(
            `[cellwright] retention: pruned ${c.webhookMessages} webhook messages (${c.webhookAttempts} attempts), ${c.cellAttempts} cell attempts, ${c.searchCache} cached answers (web search and HTTP columns), ${c.auditEntries} audit entries, ${c.cellHistories} cell histories`,
          );
      })
      .catch((e) => console.error("[cellwright] retention pass failed:", e))
      .finally(() => (running = undefined));
  };
  const first = setTimeout(run, Math.min(every, 60_000));
  const timer = setInterval(run, every);
  first.unref();
  timer.unref();
  rt.services.push({
    name: "retention",
    stop: async () => {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  });
}
