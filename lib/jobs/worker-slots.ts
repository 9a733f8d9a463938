import type { CellJob, CellWorker } from "./types.ts";
import { cellKey, type CellRef } from "../domain/cells/index.ts";

/** The reason a cancelled cell's signal carries. */
export class CellCancelled extends Error {
  constructor() {
    super("The run was cancelled.");
    this.name = "CellCancelled";
  }
}

interface Attempt {
  job: CellJob;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * The running side of a cell queue: a buffer of claimed jobs fed into at most `concurrency`
 * concurrent attempts. Every queue implementation claims its own way and shares this part. An
 * attempt holds its slot until its outcome is stored; `callLimit`, when given, also bounds the
 * attempts whose model call has not answered yet (see `answered`).
 */
export function createWorkerSlots(concurrency: number, onFinished: (job: CellJob) => void, callLimit?: () => number) {
  const buffer: CellJob[] = [];
  const attempts = new Map<string, Attempt>();
  // Running, with their model call answered: their value is being stored.
  const storing = new Set<string>();
  const calling = () => attempts.size - storing.size;
  const cancelledWaiting = new Set<string>();
  let worker: CellWorker | undefined;
  let stopped = false;
  let maxInFlight = 0;

  const dispatch = () => {
    while (
      !stopped &&
      worker &&
      attempts.size < concurrency &&
      buffer.length > 0 &&
      (!callLimit || calling() < callLimit())
    ) {
      const job = buffer.shift()!;
      const key = cellKey(job);
      const abort = new AbortController();
      if (cancelledWaiting.delete(key)) abort.abort(new CellCancelled());
      const done = worker(job, abort.signal)
        .catch((e) => console.error("[cellwright] cell worker crashed:", e))
        .finally(() => {
          attempts.delete(key);
          storing.delete(key);
          onFinished(job);
        });
      attempts.set(key, { job, abort, done });
      maxInFlight = Math.max(maxInFlight, attempts.size);
    }
  };

  return {
    buffer,
    dispatch,
    /** Claimed jobs join the buffer: the worker may read ahead for them while they wait. */
    enqueue(jobs: readonly CellJob[]) {
      buffer.push(...jobs);
      if (jobs.length > 0) worker?.prepare?.(jobs);
      dispatch();
    },
    get running() {
      return attempts.size;
    },
    /** Attempts whose model call has not answered yet. */
    get calling() {
      return calling();
    },
    /** This attempt's model call has answered: it holds its slot until stored, but no call. */
    answered(cell: CellRef) {
      const key = cellKey(cell);
      if (!attempts.has(key)) return;
      storing.add(key);
      dispatch();
    },
    /**
     * Aborts the attempts of these cells (their run was cancelled): the model call and tool fetches
     * stop. One still waiting in the buffer starts already aborted, since what was read ahead for
     * it says it is running.
     */
    abort(refs: readonly CellRef[]) {
      const waiting = new Set(buffer.map(cellKey));
      for (const r of refs) {
        const key = cellKey(r);
        const attempt = attempts.get(key);
        if (attempt) attempt.abort.abort(new CellCancelled());
        else if (waiting.has(key)) cancelledWaiting.add(key);
      }
    },
    start(w: CellWorker) {
      worker = w;
      dispatch();
    },
    /**
     * Stops starting attempts, lets in-flight ones finish for up to `graceMs`, then aborts the rest.
     * Returns the claimed jobs that never started and the attempts that were cut short.
     */
    async stop(graceMs: number): Promise<{ waiting: CellJob[]; cut: CellJob[] }> {
      stopped = true;
      cancelledWaiting.clear();
      const waiting = buffer.splice(0);
      const inFlight = [...attempts.values()];
      const finished = Promise.all(inFlight.map((r) => r.done));
      if (await Promise.race([finished.then(() => false), sleep(graceMs).then(() => true)])) {
        for (const r of attempts.values()) r.abort.abort(new Error("shutting down"));
        await Promise.race([finished, sleep(5_000)]);
      }
      return {
        waiting,
        cut: inFlight.filter((r) => attempts.has(cellKey(r.job)) || r.abort.signal.aborted).map((r) => r.job),
      };
    },
    stats: (claimed: number) => ({ inFlight: attempts.size, maxInFlight, claimed }),
  };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
