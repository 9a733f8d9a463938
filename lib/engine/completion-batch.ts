import type { Runtime } from "../runtime.ts";
import type { Work } from "../db/work.ts";
import { inTransaction } from "../db/work.ts";
import type { CellJob } from "../jobs/types.ts";
import type { CellMetadata } from "../domain/cell-view.ts";
import type { BaseContext } from "../domain/bases.ts";
import type { CreditCharge } from "../credits/ledger.ts";
import { settleRows } from "../domain/row-settled.ts";
import { newId } from "../ids.ts";
import { completeCell, type CompleteResult, type RunRecord } from "./cell-outcome.ts";

export interface Completion {
  job: CellJob;
  base: BaseContext;
  value: string;
  metadata: CellMetadata;
  charge: CreditCharge & { idempotencyKey: string };
  run: RunRecord;
}

interface Pending extends Completion {
  resolve: (r: CompleteResult) => void;
  reject: (e: unknown) => void;
}

/**
 * Stores finished cells in batches: one transaction of set-based statements for many cells,
 * instead of a transaction each. On the embedded database every statement runs on the one event
 * loop, so this is what lets a large run keep up with the model calls. Semantics are those of
 * completeCell; a batch that hits a credit shortfall is redone cell by cell so that exactly the
 * cells the balance covers are stored.
 */
export function createCompletionBatcher(
  rt: Runtime,
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

  async function write(batch: Pending[]) {
    try {
      const results = await inTransaction(rt, (w) => storeBatch(w, owner, batch));
      batch.forEach((p, i) => p.resolve(results[i]));
      onStored([...new Set(batch.filter((_, i) => results[i] === "done").map((p) => p.job.rowId))]);
    } catch (e) {
      if (!(e instanceof CreditShortfall)) return batch.forEach((p) => p.reject(e));
      for (const p of batch) {
        await inTransaction(rt, (w) => completeCell(w, p.base, p.job, owner, p.value, p.metadata, p.charge, p.run)).then((r) => {
          p.resolve(r);
          if (r === "done") onStored([p.job.rowId]);
        }, p.reject);
      }
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

class CreditShortfall extends Error {}

const col = <T>(batch: Pending[], f: (p: Pending) => T) => batch.map(f);

async function storeBatch(w: Work, owner: string, batch: Pending[]): Promise<CompleteResult[]> {
  const { tx } = w;
  const stored = await tx.$queryRawUnsafe<{ row_id: string; column_id: string }[]>(
    `UPDATE cells SET status = 'done', error_code = NULL, error_message = NULL, metadata = t.meta::jsonb, finished_at = now(),
       stale = false, lease_owner = NULL, lease_until = NULL, updated_at = now()
     FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS t(row_id, column_id, generation, meta)
     WHERE cells.row_id = t.row_id AND cells.column_id = t.column_id AND cells.generation = t.generation
       AND cells.status = 'running' AND cells.lease_owner = $5
     RETURNING cells.row_id, cells.column_id`,
    col(batch, (p) => p.job.rowId),
    col(batch, (p) => p.job.columnId),
    col(batch, (p) => p.job.generation),
    col(batch, (p) => JSON.stringify(p.metadata)),
    owner,
  );
  const ok = new Set(stored.map((s) => `${s.row_id}:${s.column_id}`));
  const done = batch.filter((p) => ok.has(`${p.job.rowId}:${p.job.columnId}`));
  if (done.length === 0) return batch.map(() => "superseded");

  await chargeAll(w, done);
  await tx.$executeRawUnsafe(
    `UPDATE rows SET "values" = (rows."values" - t.cleared) || t.patch, updated_at = now()
     FROM (SELECT row_id,
             COALESCE(jsonb_object_agg(column_id, value) FILTER (WHERE value <> ''), '{}'::jsonb) AS patch,
             COALESCE(array_agg(column_id) FILTER (WHERE value = ''), ARRAY[]::text[]) AS cleared
           FROM unnest($1::text[], $2::text[], $3::text[]) AS u(row_id, column_id, value) GROUP BY row_id) t
     WHERE rows.id = t.row_id`,
    col(done, (p) => p.job.rowId),
    col(done, (p) => p.job.columnId),
    col(done, (p) => p.value),
  );
  await tx.cellRun.createMany({
    data: done.map((p) => ({
      id: newId.cellRun(),
      rowId: p.job.rowId,
      columnId: p.job.columnId,
      workspaceId: p.base.workspaceId,
      generation: p.job.generation,
      attempt: p.job.attempts + 1,
      outcome: "done",
      ...p.run,
    })),
  });
  // The UPDATE above holds every affected row's lock, so these counts see all sibling outcomes.
  const rowIds = [...new Set(done.map((p) => p.job.rowId))];
  const open = await tx.$queryRawUnsafe<{ row_id: string }[]>(
    `SELECT DISTINCT row_id FROM cells WHERE row_id = ANY($1::text[]) AND status IN ('pending', 'running')`,
    rowIds,
  );
  const stillOpen = new Set(open.map((o) => o.row_id));
  for (const p of done) {
    w.emit({ type: "cell.updated", workspaceId: p.base.workspaceId, baseId: p.base.baseId, rowId: p.job.rowId, columnId: p.job.columnId, status: "done" });
  }
  const bases = new Map(done.map((p) => [p.job.rowId, p.base]));
  for (const rowId of rowIds) if (!stillOpen.has(rowId)) await settleRows(w, bases.get(rowId)!, [rowId]);
  w.emit({ type: "work.available" });
  return batch.map((p) => (ok.has(`${p.job.rowId}:${p.job.columnId}`) ? "done" : "superseded"));
}

/** Ledger entries for the whole batch (idempotent per cell generation), then one debit per workspace. */
async function chargeAll(w: Work, all: Pending[]) {
  const done = all.filter((p) => p.charge.amount > 0);
  if (done.length === 0) return;
  const charged = await w.tx.$queryRawUnsafe<{ workspace_id: string; amount: number }[]>(
    `INSERT INTO credit_entries (id, workspace_id, amount, reason, base_id, row_id, column_id, idempotency_key)
     SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
     ON CONFLICT (idempotency_key) DO NOTHING
     RETURNING workspace_id, amount`,
    col(done, () => newId.credit()),
    col(done, (p) => p.charge.workspaceId),
    col(done, (p) => -p.charge.amount),
    col(done, (p) => p.charge.reason),
    col(done, (p) => p.charge.baseId ?? null),
    col(done, (p) => p.charge.rowId ?? null),
    col(done, (p) => p.charge.columnId ?? null),
    col(done, (p) => p.charge.idempotencyKey),
  );
  const perWorkspace = new Map<string, number>();
  for (const c of charged) perWorkspace.set(c.workspace_id, (perWorkspace.get(c.workspace_id) ?? 0) - c.amount);
  for (const [workspaceId, total] of perWorkspace) {
    const updated = await w.tx.$executeRawUnsafe(
      `UPDATE workspaces SET credits = credits - $2 WHERE id = $1 AND (credits IS NULL OR credits >= $2)`,
      workspaceId,
      total,
    );
    if (updated === 0) throw new CreditShortfall();
  }
}
