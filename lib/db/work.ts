import type { AppEvent } from "../events.ts";
import type { Runtime } from "../runtime.ts";
import type { Tx } from "./database.ts";

/** A transaction plus the events to emit once it has committed. */
export interface Work {
  tx: Tx;
  emit(event: AppEvent): void;
  /**
   * Cells that became pending in this transaction. With a queue engine (scale-out) their jobs are
   * written here, in the same transaction; the embedded queue reads the cells table itself.
   */
  queueCells?(refs: readonly { rowId: string; columnId: string }[]): Promise<void>;
}

/**
 * Runs fn in one transaction and emits its events only after the commit, so that webhooks,
 * the engine and live UIs never react to state that could still roll back.
 */
export async function inTransaction<T>(rt: Pick<Runtime, "db" | "bus"> & Partial<Pick<Runtime, "cellJobs">>, fn: (w: Work) => Promise<T>): Promise<T> {
  const events: AppEvent[] = [];
  const jobs = rt.cellJobs;
  const work = (tx: Tx): Work => ({
    tx,
    emit: (e) => events.push(e),
    queueCells: jobs ? async (refs) => void (await jobs.enqueue(tx, refs)) : undefined,
  });
  const result = await rt.db.prisma.$transaction((tx) => fn(work(tx)), {
    maxWait: 30_000,
    timeout: 120_000,
  });
  rt.bus.emit(events);
  return result;
}
