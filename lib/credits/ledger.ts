import type { Tx } from "../db/database.ts";
import { newId } from "../ids.ts";
import { prepared } from "../db/prepared.ts";

export interface CreditCharge {
  workspaceId: string;
  amount: number;
  reason: string;
  baseId?: string;
  rowId?: string;
  columnId?: string;
  /** The API key the credits were spent through (its daily cap sums these); null: none. */
  keyId?: string | null;
  /** The same key is never charged twice (a retried or resumed run, a repeated request). */
  idempotencyKey?: string;
}

export type DebitResult = { ok: true; charged: boolean } | { ok: false; balance: number };

/**
 * Debits atomically: the ledger entry and the balance change happen together, the balance never
 * goes below zero, and concurrent debits cannot overspend (the UPDATE's WHERE is the check).
 * A workspace whose credits are NULL is unlimited; its usage is still recorded in the ledger.
 */
export async function debit(tx: Tx, charge: CreditCharge): Promise<DebitResult> {
  if (charge.amount <= 0) return { ok: true, charged: false };
  if (charge.idempotencyKey) {
    const seen = await tx.creditEntry.findUnique({
      where: { idempotencyKey: charge.idempotencyKey },
      select: { id: true },
    });
    if (seen) return { ok: true, charged: false };
  }
  const updated = await tx.$queryRawUnsafe<{ credits: bigint | null }[]>(
    `UPDATE workspaces SET credits = CASE WHEN credits IS NULL THEN NULL ELSE credits - $2 END
     WHERE id = $1 AND (credits IS NULL OR credits >= $2) RETURNING credits`,
    charge.workspaceId,
    charge.amount,
  );
  if (updated.length === 0) return { ok: false, balance: await balanceOf(tx, charge.workspaceId) };
  await record(tx, { ...charge, amount: -charge.amount });
  return { ok: true, charged: true };
}

/** Gives credits back (a run that failed on our side), at most once per key. */
export async function refund(tx: Tx, charge: CreditCharge & { idempotencyKey: string }): Promise<void> {
  const original = await tx.creditEntry.findUnique({
    where: { idempotencyKey: charge.idempotencyKey },
    select: { amount: true, keyId: true },
  });
  if (!original) return;
  const refundKey = `refund:${charge.idempotencyKey}`;
  if (await tx.creditEntry.findUnique({ where: { idempotencyKey: refundKey }, select: { id: true } })) return;
  await tx.$executeRawUnsafe(
    `UPDATE workspaces SET credits = credits + $2 WHERE id = $1 AND credits IS NOT NULL`,
    charge.workspaceId,
    -original.amount,
  );
  await record(tx, {
    ...charge,
    // Given back to the key it was spent through, so its daily cap counts what was really spent.
    keyId: original.keyId,
    amount: -original.amount,
    reason: `refund:${charge.reason}`,
    idempotencyKey: refundKey,
  });
}

export async function topUp(tx: Tx, workspaceId: string, amount: number, reason = "top_up"): Promise<number> {
  await tx.$executeRawUnsafe(
    `UPDATE workspaces SET credits = COALESCE(credits, 0) + $2 WHERE id = $1`,
    workspaceId,
    amount,
  );
  await record(tx, { workspaceId, amount, reason });
  return balanceOf(tx, workspaceId);
}

/**
 * Sets a balance outright (null: unlimited). The ledger records the difference, so the entries
 * still explain every change of a limited balance.
 */
export async function setBalance(
  tx: Tx,
  workspaceId: string,
  credits: number | null,
  reason = "set_balance",
): Promise<number> {
  const [before] = await tx.$queryRawUnsafe<{ credits: bigint | null }[]>(
    `SELECT credits FROM workspaces WHERE id = $1 FOR UPDATE`,
    workspaceId,
  );
  await tx.$executeRawUnsafe(`UPDATE workspaces SET credits = $2 WHERE id = $1`, workspaceId, credits);
  if (credits === null) await record(tx, { workspaceId, amount: 0, reason: "set_unlimited" });
  else await record(tx, { workspaceId, amount: credits - Number(before?.credits ?? 0), reason });
  return balanceOf(tx, workspaceId);
}

/** The balance; -1 stands for unlimited. */
export async function balanceOf(tx: Tx, workspaceId: string): Promise<number> {
  const ws = await tx.workspace.findUnique({ where: { id: workspaceId }, select: { credits: true } });
  return ws?.credits === null || ws?.credits === undefined ? -1 : Number(ws.credits);
}

/**
 * Debits many charges in one statement (a completion batch): each charge is recorded once per
 * idempotency key, and each workspace's balance drops by what was newly recorded. Returns false
 * when a balance would go below zero; the caller must then roll back, since the entries are
 * already written.
 */
export async function debitMany(
  tx: Tx,
  charges: readonly (CreditCharge & { idempotencyKey: string })[],
): Promise<boolean> {
  const paying = charges.filter((c) => c.amount > 0);
  if (paying.length === 0) return true;
  const [{ owed, paid }] = await tx.$queryRawUnsafe<{ owed: number; paid: number }[]>(
    prepared(`WITH recorded AS (
       INSERT INTO credit_entries (id, workspace_id, amount, reason, base_id, row_id, column_id, idempotency_key, key_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING workspace_id, amount),
     owed AS (SELECT workspace_id, -sum(amount) AS total FROM recorded GROUP BY workspace_id),
     paid AS (
       UPDATE workspaces SET credits = credits - owed.total FROM owed
       WHERE workspaces.id = owed.workspace_id AND (workspaces.credits IS NULL OR workspaces.credits >= owed.total)
       RETURNING workspaces.id)
     SELECT (SELECT count(*) FROM owed)::int AS owed, (SELECT count(*) FROM paid)::int AS paid`),
    paying.map(() => newId.credit()),
    paying.map((c) => c.workspaceId),
    paying.map((c) => -c.amount),
    paying.map((c) => c.reason),
    paying.map((c) => c.baseId ?? null),
    paying.map((c) => c.rowId ?? null),
    paying.map((c) => c.columnId ?? null),
    paying.map((c) => c.idempotencyKey),
    paying.map((c) => c.keyId ?? null),
  );
  return paid === owed;
}

async function record(tx: Tx, c: CreditCharge) {
  await tx.creditEntry.create({
    data: {
      id: newId.credit(),
      workspaceId: c.workspaceId,
      amount: c.amount,
      reason: c.reason,
      baseId: c.baseId,
      rowId: c.rowId,
      columnId: c.columnId,
      idempotencyKey: c.idempotencyKey,
      keyId: c.keyId ?? null,
    },
  });
}
