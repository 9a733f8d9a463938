import type { Runtime } from "../runtime.ts";
import type { CellQueue } from "../jobs/types.ts";
import { createCellWorker, type AttemptDeps } from "./cell-attempt.ts";
import { dbSearchCache } from "./search-cache.ts";
import { systemDnsResolver } from "../tools/index.ts";
import { storedFiles } from "../files/file-store.ts";
import { createCompletionBatcher } from "./completion-batch.ts";
import type { Completion } from "../domain/cells/index.ts";
import { startFindWorker } from "./find/worker.ts";
import { startEvaluationWorker } from "./evaluation-worker.ts";
import { httpDepsOf } from "./http/deps.ts";

export interface EngineOptions {
  tools?: AttemptDeps["tools"];
}

/**
 * Starts the enrichment engine in this process: it claims ready cells from the runtime's queue,
 * at most AI_CONCURRENCY at once and AI_RPM a minute, and wakes whenever a commit queues work.
 * The rows of evaluations run beside it, with slots of their own and the same rate limit.
 */
export async function startEngine(rt: Runtime, opts: EngineOptions = {}): Promise<CellQueue> {
  const queue = rt.queue.createCellQueue(() => rt.bus.emit({ type: "work.available" }));
  const batcher = createCompletionBatcher(rt, queue.owner, (rowIds) => queue.stored?.(rowIds));
  const tools = { cache: dbSearchCache(rt.db.prisma), dns: systemDnsResolver, files: storedFiles(rt), ...opts.tools };
  const complete = (c: Completion) => {
    queue.answered?.(c.job);
    return batcher.complete(c);
  };
  const http = httpDepsOf(rt, queue.owner, tools.lookup);
  const worker = createCellWorker(rt, { limiter: rt.limiter, owner: queue.owner, complete, tools, http });
  queue.start(worker);
  startEvaluationWorker(rt, { limiter: rt.limiter, tools });
  startFindWorker(rt, { limiter: rt.limiter, tools });
  const off = rt.bus.on((e) => {
    if (e.type === "work.available") queue.wake();
    else if (e.type === "cells.cancelled") queue.cancel(e.refs);
  });
  rt.services.push({
    name: "engine",
    stop: async () => {
      off();
      await queue.stop();
      await batcher.drain();
    },
  });
  return queue;
}
