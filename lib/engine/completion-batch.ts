import type { UnitOfWork } from "../db/work.ts";
import { inTransaction } from "../db/work.ts";
import { InsufficientCredits, storeValues, type CompleteResult, type Completion } from "../domain/cells/index.ts";

interface Pending extends Completion {
  resolve: (r: CompleteResult) => void;
  reject: (e: unknown) => void;
}

/**
 * Stores finished cells in batches: one transaction of set-based statements for many cells,
 * instead of a transaction each. On the embedded database every statement runs on the one event
 * loop, so this is what lets a large run keep up with the model calls. A batch that fails (a
 * credit shortfall, or one cell's bad write) is redone cell by cell, so that exactly the cells
 * the balance covers are stored and one cell's trouble never costs another its answer.
 */
export function createCompletionBatcher(
  uow: UnitOfWork,
  owner: string,
  onStored: (rowIds: string[]) => void = () => undefined,
  opts = { maxBatch: 64, maxDelayMs: 5 },
) {
  let queue: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing = Promise.resolve();

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    writing = writing.then(() => write(batch));
  };

  const store = async (batch: Pending[]) => {
    const results = await inTransaction(uow, (w) => storeValues(w, owner, batch));
    batch.forEach((p, i) => p.resolve(results[i]));
    onStored([...new Set(batch.filter((_, i) => results[i] === "done").map((p) => p.job.rowId))]);
  };

  async function write(batch: Pending[]) {
    try {
      await store(batch);
    } catch (e) {
      // One cell's bad write must not fail the others of its batch (they may belong to other
      // workspaces): the batch is redone cell by cell, and only the culprit fails.
      if (batch.length === 1) return batch.forEach((p) => p.reject(e));
      if (!(e instanceof InsufficientCredits)) console.error("[cellwright] a completion batch failed; storing its cells one by one:", e);
      for (const p of batch) await store([p]).catch(p.reject);
    }
  }

  return {
    complete(c: Completion): Promise<CompleteResult> {
      return new Promise((resolve, reject) => {
        queue.push({ ...c, resolve, reject });
        if (queue.length >= opts.maxBatch) flush();
        else timer ??= setTimeout(flush, opts.maxDelayMs);
      });
    },
    /** Writes whatever is waiting (shutdown). */
    async drain() {
      flush();
      await writing;
    },
  };
}
