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
 * loop, so this is what lets a large run keep up with the model calls. Group commit: an answer is
 * written at once when no write is under way, and the answers that arrive during a write make up
 * the next batch, so a cell waits for at most one write before its own (its worker slot waits with
 * it). A batch that fails (a credit shortfall, or one cell's bad write) is redone cell by cell, so
 * that exactly the cells the balance covers are stored and one cell's trouble never costs another
 * its answer.
 */
export function createCompletionBatcher(
  uow: UnitOfWork,
  owner: string,
  onStored: (rowIds: string[]) => void = () => undefined,
  opts = { maxBatch: 64 },
) {
  const queue: Pending[] = [];
  let writing: Promise<void> | null = null;

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
      if (!(e instanceof InsufficientCredits))
        console.error("[cellwright] a completion batch failed; storing its cells one by one:", e);
      for (const p of batch) await store([p]).catch(p.reject);
    }
  }

  /** Writes until nothing waits; answers that came in the same turn of the event loop share a batch. */
  const pump = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    while (queue.length > 0) await write(queue.splice(0, opts.maxBatch));
    writing = null;
  };

  return {
    complete(c: Completion): Promise<CompleteResult> {
      return new Promise((resolve, reject) => {
        queue.push({ ...c, resolve, reject });
        writing ??= pump();
      });
    },
    /** Writes whatever is waiting (shutdown). */
    async drain() {
      await writing;
    },
  };
}
