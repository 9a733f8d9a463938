import type { Tx } from "../db/database.ts";
import { newId } from "../ids.ts";

export interface CreditCharge {
  workspaceId: string;
  amount: number;
  reason: string;
  baseId?: string;
  rowId?: string;
  columnId?: string;
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
    const seen = await tx.creditEntry.findUnique({ where: { idempotencyKey: charge.idempotencyKey }, select: { id: true } });
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
  const original = await tx.creditEntry.findUnique({ where: { idempotencyKey: charge.idempotencyKey }, select: { amount: true } });
  if (!original) return;
  const refundKey = `refund:${charge.idempotencyKey}`;
  if (await tx.creditEntry.findUnique({ where: { idempotencyKey: refundKey }, select: { id: true } })) return;
  await tx.$executeRawUnsafe(`UPDATE workspaces SET credits = credits + $2 WHERE id = $1 AND credits IS NOT NULL`, charge.workspaceId, -original.amount);
  await record(tx, { ...charge, amount: -original.amount, reason: `refund:${charge.reason}`, idempotencyKey: refundKey });
}

export async function topUp(tx: Tx, workspaceId: string, amount: number, reason = "top_up"): Promise<number> {
  await tx.$executeRawUnsafe(`UPDATE workspaces SET credits = COALESCE(credits, 0) + $2 WHERE id = $1`, workspaceId, amount);
  await record(tx, { workspaceId, amount, reason });
  return balanceOf(tx, workspaceId);
}

/**
 * Sets a balance outright (null: unlimited). The ledger records the difference, so the entries
 * still explain every change of a limited balance.
 */
export async function setBalance(tx: Tx, workspaceId: string, credits: number | null, reason = "set_balance"): Promise<number> {
  const [before] = await tx.$queryRawUnsafe<{ credits: bigint | null }[]>(`SELECT credits FROM workspaces WHERE id = $1 FOR UPDATE`, workspaceId);
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

export async function hasCredits(tx: Tx, workspaceId: string, amount: number): Promise<boolean> {
  const balance = await balanceOf(tx, workspaceId);
  return balance === -1 || balance >= amount;
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
    },
  });
}
